// The `arfabric` command line: one subcommand per job (decode, and later
// sim, bgpd, show ...). Each subcommand lives in its own file in src/cli/.
#pragma once

namespace arfabric::cli {

// Parses argv, runs the chosen subcommand and returns the process exit code.
int run(int argc, char** argv);

}  // namespace arfabric::cli
