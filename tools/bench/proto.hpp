// smcr-bench wire protocol: the 16-byte hello every client connection starts
// with, and the 8-byte byte count the stream server sends back. All fields
// are big-endian (network order).
#pragma once

#include <array>
#include <cstdio>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace bench {

enum class Mode : uint32_t { Stream = 1, Rr = 2, Crr = 3, Many = 4 };

inline constexpr uint32_t kHelloMagic = 0x534d424e; // "SMBN"
inline constexpr size_t kHelloSize = 16;
inline constexpr uint32_t kMaxMsgSize = 16u << 20;

inline const char *mode_name(Mode m)
{
	switch (m) {
	case Mode::Stream: return "stream";
	case Mode::Rr: return "rr";
	case Mode::Crr: return "crr";
	case Mode::Many: return "many";
	}
	return "?";
}

struct Hello {
	Mode mode = Mode::Stream;
	uint32_t msg_size = 1;
};

inline void put_be32(uint8_t *p, uint32_t v)
{
	p[0] = static_cast<uint8_t>(v >> 24);
	p[1] = static_cast<uint8_t>(v >> 16);
	p[2] = static_cast<uint8_t>(v >> 8);
	p[3] = static_cast<uint8_t>(v);
}

inline uint32_t get_be32(const uint8_t *p)
{
	return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

inline std::array<uint8_t, 8> encode_count(uint64_t v)
{
	std::array<uint8_t, 8> b{};
	put_be32(b.data(), static_cast<uint32_t>(v >> 32));
	put_be32(b.data() + 4, static_cast<uint32_t>(v));
	return b;
}

inline uint64_t decode_count(std::span<const uint8_t, 8> b)
{
	return (uint64_t{get_be32(b.data())} << 32) | get_be32(b.data() + 4);
}

// magic, mode, msg_size, reserved (0).
inline std::array<uint8_t, kHelloSize> encode_hello(const Hello &h)
{
	std::array<uint8_t, kHelloSize> b{};
	put_be32(b.data(), kHelloMagic);
	put_be32(b.data() + 4, static_cast<uint32_t>(h.mode));
	put_be32(b.data() + 8, h.msg_size);
	put_be32(b.data() + 12, 0);
	return b;
}

// Validates magic, mode (1..4) and 1 <= msg_size <= 16 MiB; the reserved
// word is ignored (room for later flags). On failure err says why.
inline std::optional<Hello> decode_hello(std::span<const uint8_t, kHelloSize> b, std::string &err)
{
	char buf[64];
	uint32_t magic = get_be32(b.data());
	if (magic != kHelloMagic) {
		std::snprintf(buf, sizeof(buf), "bad magic 0x%08x", magic);
		err = buf;
		return std::nullopt;
	}
	uint32_t mode = get_be32(b.data() + 4);
	if (mode < 1 || mode > 4) {
		err = "bad mode " + std::to_string(mode);
		return std::nullopt;
	}
	uint32_t size = get_be32(b.data() + 8);
	if (size < 1 || size > kMaxMsgSize) {
		err = "bad msg_size " + std::to_string(size);
		return std::nullopt;
	}
	return Hello{static_cast<Mode>(mode), size};
}

} // namespace bench
