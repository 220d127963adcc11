// A daemon's pid file (`bgpd --pid-file`), held for the daemon's life.
//
// The file is locked (flock) while the daemon runs, so a second daemon
// given the same path is refused instead of overwriting it and then
// removing it when it exits, which left the first daemon without one. A
// file left by a daemon that died is not locked, and is taken over.
#pragma once

#include <string>

#include "sysdep/linux/io.h"

namespace arfabric::sysdep {

class PidFile {
 public:
  // Creates or takes over `path`, locks it and writes this process's id.
  // Errors: the file cannot be opened or written (the call and errno);
  // ELOOP when `path` is a symbolic link, EINVAL when not a regular file,
  // EEXIST when it holds something other than a process id (a config
  // file given by mistake is neither overwritten nor removed);
  // EWOULDBLOCK when another process holds it, the message naming its
  // process id as the file gives it.
  static SysResult<PidFile> acquire(const std::string& path);
  PidFile(PidFile&&) noexcept = default;
  PidFile& operator=(PidFile&&) noexcept;
  // Removes the file while still holding it.
  ~PidFile();

 private:
  PidFile() = default;
  std::string path_;
  Fd fd_;
};

}  // namespace arfabric::sysdep
