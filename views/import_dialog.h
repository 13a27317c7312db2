#pragma once
// File > Import files…: the files and folders to import and their format, "Automatic (detect from
// content)" first, then every format FabScope reads (the CLI's --format names). The file dialog it
// opens filters by format family; capture files rarely have telling extensions, so "All files"
// stays available.
#include <QDialog>
#include <QStringList>

class QComboBox;
class QListWidget;

namespace fabscope {

class ImportDialog : public QDialog {
    Q_OBJECT
public:
    // `formats`: the importers' names, as `fabscope import --format` takes them.
    ImportDialog(const QStringList& formats, QWidget* parent = nullptr);
    void setFiles(const QStringList& files);
    [[nodiscard]] QStringList files() const;
    // The chosen format's name; empty for Automatic.
    [[nodiscard]] QString format() const;
    [[nodiscard]] QComboBox* formatBox() const { return format_; }

private:
    void addFiles();
    void addFolder();
    void updateOk();

    QListWidget* list_;
    QComboBox* format_;
};

} // namespace fabscope
