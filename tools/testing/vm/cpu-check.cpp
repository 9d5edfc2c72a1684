// SPDX-License-Identifier: GPL-2.0
/*
 * cpu-check: does the test VM's emulated CPU get right what the guest
 * kernel relies on? The initramfs of every test VM runs it first
 * (tools/testing/vm/run, README "CPU model"): exit 0 and one line when the
 * CPU is sound, exit 1 and the reason when it is not.
 *
 * What it checks: CMPXCHG16B sets ZF and leaves every other flag as it
 * found them (Intel SDM, AMD APM). The TCG of QEMU 7.2 (Debian 12's) calls
 * a helper that computes the other flags from the lazily kept flags state
 * without bringing it up to date first; when an earlier instruction of the
 * same translation block set flags, RFLAGS comes out of cmpxchg16b as
 * something else - with TF and DF set, for the operands below. Linux's
 * SLUB fast path runs cmpxchg16b on every slab allocation: an interrupt
 * right after one saves such flags, its IRET loads them, the kernel takes
 * a single-step #DB it never asked for (the WARN in exc_debug_kernel()),
 * clears TF but not DF, and its string instructions then run backwards
 * over memory. A CPU without CMPXCHG16B (QEMU's "-cpu ...,-cx16") keeps the
 * kernel off the instruction: that is sound too.
 *
 * cpu-check --traps SECONDS shows the effect end to end, in user space:
 * it runs cmp + cmpxchg16b followed by a jump (a translation block
 * boundary, where QEMU takes interrupts) for SECONDS and counts the
 * single-step traps (SIGTRAP) that arrive although nothing set TF; exit 1
 * if there was any.
 */
#include <cpuid.h>
#include <signal.h>
#include <ucontext.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

namespace {

constexpr std::uint64_t flag_zf = 1u << 6;
constexpr std::uint64_t flag_tf = 1u << 8;
constexpr std::uint64_t flag_df = 1u << 10;

bool has_cx16()
{
	unsigned int a, b, c, d;

	return __get_cpuid(1, &a, &b, &c, &d) && (c & bit_CMPXCHG16B);
}

// RFLAGS after "cmp src, dst", with or without a successful cmpxchg16b
// after it. The popfq first ends QEMU's translation block, so the cmp and
// the cmpxchg16b start a new one together (the case the helper gets wrong).
std::uint64_t flags_after(std::uint64_t src, std::uint64_t dst, bool cx16)
{
	alignas(16) static std::uint64_t mem[2];
	std::uint64_t flags, lo = 1, hi = 2;

	mem[0] = lo;
	mem[1] = hi;
	if (cx16)
		asm volatile("pushq $2\n\t"
			     "popfq\n\t"
			     "cmpq %[src], %[dst]\n\t"
			     "cmpxchg16b %[mem]\n\t"
			     "pushfq\n\t"
			     "popq %[flags]"
			     : [flags] "=&r"(flags), [mem] "+m"(mem), "+a"(lo),
			       "+d"(hi)
			     : "b"(std::uint64_t{3}), "c"(std::uint64_t{4}),
			       [src] "r"(src), [dst] "r"(dst)
			     : "cc", "memory");
	else
		asm volatile("pushq $2\n\t"
			     "popfq\n\t"
			     "cmpq %[src], %[dst]\n\t"
			     "pushfq\n\t"
			     "popq %[flags]"
			     : [flags] "=&r"(flags)
			     : [src] "r"(src), [dst] "r"(dst)
			     : "cc");
	return flags;
}

volatile sig_atomic_t traps;

void on_trap(int, siginfo_t *, void *ctx)
{
	auto *uc = static_cast<ucontext_t *>(ctx);

	traps = traps + 1;
	// go on without the flags nobody set
	uc->uc_mcontext.gregs[REG_EFL] &= ~static_cast<greg_t>(flag_tf | flag_df);
}

// Unexpected single-step traps in about @secs seconds of cmpxchg16b.
int count_traps(long secs)
{
	alignas(16) static std::uint64_t mem[2];
	struct sigaction sa = {};
	std::time_t end = std::time(nullptr) + secs;
	unsigned long n = 0;

	sa.sa_sigaction = on_trap;
	sa.sa_flags = SA_SIGINFO;
	if (sigaction(SIGTRAP, &sa, nullptr)) {
		std::perror("cpu-check: sigaction");
		return 2;
	}
	while (std::time(nullptr) < end) {
		for (int i = 0; i < 100000; i++, n++) {
			std::uint64_t lo = 1, hi = 2;

			mem[0] = lo;
			mem[1] = hi;
			asm volatile("pushq $2\n\t"
				     "popfq\n\t"
				     "cmpq %[src], %[dst]\n\t"
				     "cmpxchg16b %[mem]\n\t"
				     "jmp 1f\n"
				     "1:\tnop\n\t"
				     "nop"
				     : [mem] "+m"(mem), "+a"(lo), "+d"(hi)
				     : "b"(std::uint64_t{3}), "c"(std::uint64_t{4}),
				       [src] "r"(std::uint64_t{0x500}),
				       [dst] "r"(std::uint64_t{0x1234})
				     : "cc", "memory");
		}
	}
	std::printf("cpu-check: %lu cmpxchg16b in %ld s, %d single-step traps nobody asked for\n",
		    n, secs, static_cast<int>(traps));
	return traps ? 1 : 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 3 && !std::strcmp(argv[1], "--traps"))
		return has_cx16() ? count_traps(std::atol(argv[2])) : 0;
	if (argc != 1) {
		std::fputs("usage: cpu-check [--traps SECONDS]\n", stderr);
		return 2;
	}

	// Source operands with the TF and DF bit positions set, and others.
	static constexpr std::uint64_t operands[][2] = {
		{ 0x500, 0x1234 }, { 0x1234, 0x500 }, { 0, 0 },
		{ ~std::uint64_t{0}, 1 }, { 0x8000000000000000, 0x7fffffffffffffff },
	};

	if (!has_cx16()) {
		std::puts("cpu-check: no CMPXCHG16B, nothing to check");
		return 0;
	}
	for (const auto &op : operands) {
		std::uint64_t want = flags_after(op[0], op[1], false) | flag_zf;
		std::uint64_t got = flags_after(op[0], op[1], true);

		if (got == want)
			continue;
		std::printf("cpu-check: CMPXCHG16B corrupts RFLAGS (%#llx, expected %#llx%s%s): this QEMU's TCG is known to; "
			    "boot the VM with -cpu ...,-cx16 (tools/testing/vm/README.md, \"CPU model\")\n",
			    static_cast<unsigned long long>(got),
			    static_cast<unsigned long long>(want),
			    (got & ~want & flag_tf) ? ", TF set" : "",
			    (got & ~want & flag_df) ? ", DF set" : "");
		return 1;
	}
	std::puts("cpu-check: CMPXCHG16B keeps RFLAGS");
	return 0;
}
