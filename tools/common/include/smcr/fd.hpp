// RAII owner of a file descriptor.
#pragma once

#include <unistd.h>

#include <utility>

namespace smcr {

class UniqueFd {
public:
	UniqueFd() noexcept = default;
	explicit UniqueFd(int fd) noexcept : fd_(fd) {}
	UniqueFd(const UniqueFd &) = delete;
	UniqueFd &operator=(const UniqueFd &) = delete;
	UniqueFd(UniqueFd &&o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
	UniqueFd &operator=(UniqueFd &&o) noexcept
	{
		if (this != &o)
			reset(std::exchange(o.fd_, -1));
		return *this;
	}
	~UniqueFd() { reset(); }

	int get() const noexcept { return fd_; }
	explicit operator bool() const noexcept { return fd_ >= 0; }
	int release() noexcept { return std::exchange(fd_, -1); }
	// Closes the current fd (if any); returns close()'s result.
	int reset(int fd = -1) noexcept
	{
		int rc = 0;
		if (fd_ >= 0)
			rc = ::close(fd_);
		fd_ = fd;
		return rc;
	}

private:
	int fd_ = -1;
};

} // namespace smcr
