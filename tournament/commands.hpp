// The tournament's commands, one file each (run and resume share run_command.cpp); main.cpp
// reads the command line and calls one. Each returns the program's exit status (cli.hpp).
#pragma once

#include <boost/program_options.hpp>

namespace bg::tournament::commands {

namespace po = boost::program_options;

// The options of run alone, and of run and resume.
po::options_description run_options();
po::options_description play_options();

int run(const po::variables_map& vm);
int resume(const po::variables_map& vm);
int standings(const po::variables_map& vm);
int games(const po::variables_map& vm);
int report(const po::variables_map& vm);
int merge(const po::variables_map& vm);

}  // namespace bg::tournament::commands
