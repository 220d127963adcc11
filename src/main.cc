// The arfabric command: see `arfabric --help` and src/cli/.
#include "cli/main.h"

int main(int argc, char** argv) { return arfabric::cli::run(argc, argv); }
