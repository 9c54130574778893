// arena bot submit: a bot's author sends a version of a hosted bot to an arena (docs/arena.md,
// "Hosting a bot"): the archive at ARCHIVE POSTed to the arena at URL (its bot's page,
// http://HOST:PORT/bots/NAME, or the API's http://HOST:PORT/api/bots/NAME/versions) with the bot's
// token from a file (never a command line, which others on the machine can read). The arena's
// answer goes to stdout (JSON: the version, and what happens next), or its refusal to stderr.
#pragma once

#include <string>

namespace bg::arena {

// The exit status: 0 the arena took it; 1 it refused it, or could not be reached; 2 bad input
// (no token, no archive, a URL that is not an arena's).
int submit_command(const std::string& token_file, const std::string& url,
                   const std::string& archive);

}  // namespace bg::arena
