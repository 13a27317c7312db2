// fabscope-gui: the desktop view, and every CLI command as well (`fabscope`, app/cli_main.cpp,
// hands it the view and PDF reports). CLI sub-commands never create a QApplication, so they
// run on machines without a display.
#include "app/cli.h"
#include "app/main_window.h"

#include <QApplication>

#include <iostream>

int main(int argc, char** argv) {
    fabscope::cli::setPrometheusPull(&fabscope::pullPrometheus);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (fabscope::cli::isCliCommand(args)) return fabscope::cli::run(args);
    if (!args.empty() && args.front() == "gui") args.erase(args.begin());
    if (!args.empty() && (args.front() == "--help" || args.front() == "-h")) {  // help, not a window
        std::cout << "usage: fabscope gui [STORE]\n  opens the desktop view, on STORE when given (F1 in the window lists the shortcuts)\n\n"
                  << fabscope::cli::usage();
        return fabscope::cli::kOk;
    }
    if (!args.empty() && args.front().starts_with("-")) {
        std::cerr << "fabscope gui: unknown option " << args.front() << "\n\n" << fabscope::cli::usage();
        return fabscope::cli::kUsage;
    }
    if (args.size() > 1) {
        std::cerr << fabscope::cli::usage();
        return fabscope::cli::kUsage;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationName(QStringLiteral("FabScope"));
    fabscope::MainWindow window;
    window.show();
    if (!args.empty()) window.openStore(QString::fromStdString(args.front()));
    return QApplication::exec();
}
