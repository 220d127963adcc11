#include "sysdep/linux/pid_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <utility>

namespace arfabric::sysdep {

namespace {

// What the file says: the holder's process id, or "" when unreadable.
std::string holder_of(int fd) {
  char text[32] = {};
  const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return "";
  std::string s(text, static_cast<std::size_t>(n));
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

// Whether the file is empty or its first line is a process id: a pid file.
bool looks_like_a_pid_file(int fd) {
  char text[64] = {};
  const ssize_t n = ::pread(fd, text, sizeof text, 0);
  if (n <= 0) return n == 0;
  std::size_t digits = 0;
  while (digits < static_cast<std::size_t>(n) && text[digits] >= '0' &&
         text[digits] <= '9')
    ++digits;
  return digits > 0 && (digits == static_cast<std::size_t>(n) ||
                        text[digits] == '\n' || text[digits] == ' ');
}

}  // namespace

SysResult<PidFile> PidFile::acquire(const std::string& path) {
  // Not through a symbolic link: the file it names would be overwritten,
  // and then removed at exit.
  Fd fd(::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644));
  if (!fd) return std::unexpected(SysError{"open(" + path + ")", errno});
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return std::unexpected(SysError{"fstat(" + path + ")", errno});
  if (!S_ISREG(st.st_mode))
    return std::unexpected(
        SysError{"pid file " + path + ": not a regular file", EINVAL});
  if (!looks_like_a_pid_file(fd.get()))
    return std::unexpected(SysError{
        "pid file " + path +
            ": holds something other than a process id (not overwritten)",
        EEXIST});
  if (::flock(fd.get(), LOCK_EX | LOCK_NB) != 0) {
    const int err = errno;
    const std::string holder = holder_of(fd.get());
    return std::unexpected(
        SysError{"flock(" + path + "): held by " +
                     (holder.empty() ? std::string("another process")
                                     : "process " + holder),
                 err});
  }
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd.get(), 0) != 0 ||
      ::pwrite(fd.get(), pid.data(), pid.size(), 0) !=
          static_cast<ssize_t>(pid.size())) {
    return std::unexpected(SysError{"write(" + path + ")", errno});
  }
  PidFile f;
  f.path_ = path;
  f.fd_ = std::move(fd);
  return f;
}

PidFile& PidFile::operator=(PidFile&& o) noexcept {
  std::swap(path_, o.path_);
  std::swap(fd_, o.fd_);
  return *this;
}

PidFile::~PidFile() {
  if (!fd_) return;
  // Only if the path still names the file held: someone may have removed
  // it, and another daemon created its own there since.
  if (same_file(fd_.get(), path_)) ::unlink(path_.c_str());
}

}  // namespace arfabric::sysdep
