#include "core/report/report_writer.h"

#include "core/report/csv_writer.h"
#include "core/report/html_writer.h"
#include "core/report/json_writer.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace fabscope {
namespace {

PdfRenderer& renderer() {
    static PdfRenderer r = nullptr;
    return r;
}

void writeText(const std::string& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw std::runtime_error(path + ": cannot write");
}

} // namespace

std::optional<ReportFormat> reportFormatFor(const std::string& path) {
    std::string ext = std::filesystem::path(path).extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".html" || ext == ".htm") return ReportFormat::Html;
    if (ext == ".pdf") return ReportFormat::Pdf;
    if (ext == ".csv") return ReportFormat::Csv;
    if (ext == ".json") return ReportFormat::Json;
    return std::nullopt;
}

void setPdfRenderer(PdfRenderer r) { renderer() = r; }
PdfRenderer pdfRenderer() { return renderer(); }

void writeAtomically(const std::string& path, const std::function<void(const std::string& tmp)>& write) {
    const std::string tmp = path + ".part-" + std::to_string(::getpid());
    try {
        write(tmp);
        std::error_code ec;
        std::filesystem::rename(tmp, path, ec);
        if (ec) throw std::runtime_error(path + ": " + ec.message());
    } catch (const std::runtime_error& e) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        std::string msg = e.what();  // name the file the user asked for, not our temporary
        if (msg.starts_with(tmp)) msg = path + msg.substr(tmp.size());
        throw std::runtime_error(msg);
    } catch (...) {
        std::error_code ignored;
        std::filesystem::remove(tmp, ignored);
        throw;
    }
}

void writeReport(const ReportData& data, ReportFormat format, const std::string& path) {
    if (format == ReportFormat::Pdf && !pdfRenderer()) throw std::runtime_error("PDF output is not available in this build");
    writeAtomically(path, [&](const std::string& tmp) {
        switch (format) {
        case ReportFormat::Html: writeText(tmp, renderHtml(buildDocument(data))); break;
        case ReportFormat::Csv: writeText(tmp, renderCsv(buildDocument(data))); break;
        case ReportFormat::Json: writeText(tmp, renderJson(data) + "\n"); break;
        case ReportFormat::Pdf: pdfRenderer()(buildDocument(data), tmp); break;
        }
    });
}

void writeDocument(const ReportDocument& doc, ReportFormat format, const std::string& path) {
    if (format != ReportFormat::Html && format != ReportFormat::Pdf) throw std::runtime_error(path + ": this report is written as .html or .pdf");
    if (format == ReportFormat::Pdf && !pdfRenderer()) throw std::runtime_error("PDF output is not available in this build");
    writeAtomically(path, [&](const std::string& tmp) {
        if (format == ReportFormat::Html) writeText(tmp, renderHtml(doc));
        else pdfRenderer()(doc, tmp);
    });
}

} // namespace fabscope
