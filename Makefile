# SPDX-License-Identifier: GPL-2.0
#
# smcr: top-level build and test entry points.
#
#   make                 smcr.ko for KDIR (default: running kernel, else
#                        Debian 12's 6.12 headers) + the C++ tools
#   make modules-all     smcr.ko for stock 6.12, stock 6.1 and the debug kernel
#                        (modules-stock: the first two)
#   make check           install deps, build everything, run KUnit and
#                        selftests in VMs; ends with "N passed, N failed"
#                        (SOAK=1: the soak tier too)
#   make soak            the soak tier: endurance tests (SOAK-tagged
#                        selftests at full size, SOAK_BOOTS=10 VM boots)
#   make fuzz            one million seeded hostile CDC/LLC messages, v1 and v2
#                        (selftest 057 at soak size, FUZZ_SEED=1) beside an
#                        honest stream on stock 6.12, then smcr unloads
#   make demo            boot two VMs and run an unmodified program over AF_SMC
#   make bench           boot two VMs once and measure TCP, smcr, the in-tree
#                        smc.ko and raw verbs side by side: build/bench/<time>/
#                        results.md, results.json, plot.png
#   make deps            install the Debian packages the tree needs
#   make checkpatch      checkpatch.pl --strict on the kernel sources
#   make install         (after make) smcr.ko into /lib/modules/KVER/extra +
#                        depmod, the tools and man pages into PREFIX
#                        (/usr/local); DESTDIR stages, and skips depmod
#   make uninstall       removes what make install installed
#   make dkms            (root) register with DKMS (dkms-add) and install
#                        for KVER; make dkms-remove undoes both
#
# W=1 and C=1 are passed to Kbuild, and so is SMCR_TEST_HOOKS=y, which
# builds the test hooks in (net/smc/test_hooks.h: the test_* module
# parameters the selftests need), into build/mod-test/<release>. make
# check, make soak and make fuzz set it themselves; make, make module and
# DKMS builds have no test hooks (build/mod/<release>), and make install
# refuses a module built with them. KDIR picks the kernel build tree, or
# KVER=<release> for /lib/modules/<release>/build.

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build

STOCK_612 := $(notdir $(firstword $(wildcard /lib/modules/6.12.*-amd64)))
STOCK_61 := $(notdir $(firstword $(wildcard /lib/modules/6.1.*-amd64)))

# KVER=<release> alone selects that installed kernel's build tree.
ifneq ($(KVER),)
KDIR ?= /lib/modules/$(KVER)/build
endif

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR ?= /lib/modules/$(STOCK_612)/build
else
KDIR ?= $(RUNNING_KDIR)
endif

# The module output directory is named after the kernel release as uname -r
# shows it in the guest: /lib/modules/<release>/build -> <release>.
kdir_release = $(if $(filter /lib/modules/%/build,$(1)),$(patsubst /lib/modules/%/build,%,$(1)),$(shell cat $(1)/include/config/kernel.release))

KSRC := Kbuild net include uapi kunit

# The kernel release make install installs for (default: KDIR's)
KVER ?= $(call kdir_release,$(KDIR))

# The project's version has one home: PACKAGE_VERSION in dkms.conf.
VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\{0,1\}\([^"]*\)"\{0,1\}$$/\1/p' $(TOP)/dkms.conf)

# make install: DESTDIR stages a tree (then depmod is not run), PREFIX is
# where the tools go, INSTALL_MOD_DIR the directory under
# /lib/modules/KVER/ (extra/, as Kbuild's modules_install; DKMS's copy
# goes to updates/dkms/ and takes precedence).
PREFIX ?= /usr/local
INSTALL_MOD_DIR ?= extra
DEST := $(if $(DESTDIR),$(abspath $(DESTDIR)))
MOD_DEST = $(DEST)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)
MOD_BUILT = $(BUILD)/mod/$(call kdir_release,$(KDIR))/smcr.ko
# What tools/'s CMake install() rules install, relative to PREFIX; make
# install warns when the two disagree, make uninstall removes these.
TOOLS_FILES := sbin/smcr share/man/man8/smcr.8 bin/smc_run share/man/man8/smc_run.8 \
	lib/libsmc-preload.so bin/smctest bin/smcr-bench

# make dkms copies the module's sources here, DKMS's place for them.
DKMS_SRC := /usr/src/smcr-$(VERSION)
DKMS_FILES := dkms.conf Makefile $(KSRC)

KBUILD_OPTS := $(if $(W),W=$(W)) $(if $(C),C=$(C))

DEBUG_KERNEL := tools/testing/vm/debug-kernel.sh

# The test targets build smcr.ko with its test hooks, in their own make and
# in every make they run (check.sh's module-debug, static checks).
check soak fuzz: export SMCR_TEST_HOOKS := y

.PHONY: all module modules-all modules-stock module-debug tools deps check soak fuzz demo bench clean \
	checkpatch help install install-module install-tools uninstall \
	uninstall-module uninstall-tools dkms dkms-add dkms-remove

all: module tools

# Modules with the test hooks are built in build/mod-test/<release>, the
# others in build/mod/<release>: make install and DKMS take only the
# latter, the selftests load only the former (selftests/run).
MOD_TREE = $(BUILD)/mod$(if $(filter y,$(SMCR_TEST_HOOKS)),-test)

# $(call build-module,KDIR): out-of-tree build in $(MOD_TREE)/<release>, a
# tree of symlinks to the sources, so several kernels build side by side.
# The leading + hands make's jobserver (-jN, as DKMS passes) to Kbuild.
define build-module
	+@set -e; out=$(MOD_TREE)/$(call kdir_release,$(1)); \
	mkdir -p $$out; \
	for d in $(KSRC); do cp -asf $(TOP)/$$d $$out/; done; \
	$(MAKE) -C $(1) M=$$out $(KBUILD_OPTS) modules
endef

module:
	$(call build-module,$(KDIR))

modules-all: module-debug modules-stock

# the Debian kernels' modules (make check builds the debug kernel's later,
# once the kernel is built)
modules-stock:
	$(call build-module,/lib/modules/$(STOCK_612)/build)
	$(call build-module,/lib/modules/$(STOCK_61)/build)

module-debug:
	@kdir=$$($(DEBUG_KERNEL) --print-kdir) && \
		$(MAKE) --no-print-directory module KDIR=$$kdir

# Under make -jN the build shares make's job slots (+), else -j$(nproc).
tools:
	cmake -S tools -B $(BUILD)/tools -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	+cmake --build $(BUILD)/tools $(if $(filter --jobserver-auth=%,$(MAKEFLAGS)),,-j$$(nproc))

deps:
	@scripts/install-deps.sh

# Each step's time goes into $(PHASES), printed in check.sh's summary.
PHASES := $(BUILD)/check-phases
PHASE := tools/testing/phase.sh $(PHASES)

# The debug kernel builds in the background from the moment its packages
# are there: while apt installs the rest, while the stock modules and the
# tools build, and while the stock kernels' VMs run. SCHED_IDLE (and nice
# 19), so that it takes only the CPU time they leave and yields at once
# when a VM wakes up (the VMs' network round trips are latency-bound: with
# nice 19 alone, interop 003's 1 GiB took 139 s instead of about 55).
# check.sh waits for it before the debug kernel's steps and builds its
# modules then.
check:
	@mkdir -p $(BUILD) && rm -f $(PHASES)
	@$(PHASE) "setup: apt packages for the kernel build" scripts/install-deps.sh --kernel-build
	@chrt --idle 0 nice -n 19 $(DEBUG_KERNEL) --start
	@$(PHASE) "setup: the other apt packages" scripts/install-deps.sh
	$(PHASE) "setup: smcr.ko for stock 6.12 and 6.1, tools" $(MAKE) -j$$(nproc) modules-stock tools
	SMCR_PHASES=$(PHASES) tools/testing/check.sh
	$(if $(SOAK),tools/testing/check.sh --soak)

# The soak tier: endurance runs (SOAK-tagged selftests at full size on the
# stock kernels, SOAK_BOOTS boots of the stream tests); make check SOAK=1
# runs it after make check.
soak: deps
	$(call build-module,/lib/modules/$(STOCK_612)/build)
	$(call build-module,/lib/modules/$(STOCK_61)/build)
	$(MAKE) tools
	tools/testing/check.sh --soak

# 057's soak size is the 10^6 messages, once in SMC-R version 1 and once
# in version 2 framing; the guest then checks kmemleak
fuzz: deps
	$(MAKE) module KDIR=/lib/modules/$(STOCK_612)/build
	$(MAKE) tools
	for v in 1 2; do \
		tools/testing/vm/run --kernel 6.12 --timeout 3000 -- \
			env SMCR_FUZZ_SEED=$(or $(FUZZ_SEED),1) SMCR_FUZZ_CLC_VERSION=$$v \
			selftests/run --soak 057 || exit 1; \
	done

demo: deps
	$(MAKE) module KDIR=/lib/modules/$(STOCK_612)/build
	$(MAKE) tools
	tools/testing/vm/run --kernel 6.12 --vms 2 -- tools/demo/demo.sh

bench: deps
	$(MAKE) module KDIR=/lib/modules/$(STOCK_612)/build
	$(MAKE) tools
	tools/bench/run

checkpatch:
	@cp=$${CHECKPATCH:-$$HOME/.cache/smcr/checkpatch.pl}; \
	perl $$cp --no-tree --strict --terse -f \
		$$(git ls-files 'net/*.[ch]' 'include/*.h' 'kunit/*.c' 'uapi/*.h')

# make install does not build: it runs as root, and building as root would
# leave root-owned files in build/. Run make (as yourself) first.
install: install-module install-tools

install-module:
	@test -f $(MOD_BUILT) || { echo "$(MOD_BUILT) missing: run 'make module KDIR=$(KDIR)' first" >&2; exit 1; }
	@parm=$$(PATH=$$PATH:/usr/sbin:/sbin modinfo -F parm $(MOD_BUILT)) || \
		{ echo "modinfo $(MOD_BUILT) failed" >&2; exit 1; }; \
	! grep -q '^test_' <<<"$$parm" || \
		{ echo "$(MOD_BUILT) has the test hooks: run 'make module KDIR=$(KDIR)' (without SMCR_TEST_HOOKS=y) first" >&2; exit 1; }
	install -D -m 644 $(MOD_BUILT) $(MOD_DEST)/smcr.ko
	$(if $(DEST),,depmod -a $(KVER))

install-tools:
	@test -f $(BUILD)/tools/cmake_install.cmake || { echo "$(BUILD)/tools not built: run 'make tools' first" >&2; exit 1; }
	DESTDIR=$(DEST) cmake --install $(BUILD)/tools --prefix $(abspath $(PREFIX))
	@sed -e 's|^$(DEST)$(abspath $(PREFIX))/||' -e 's|^$(abspath $(PREFIX))/||' \
		$(BUILD)/tools/install_manifest.txt | sort | \
		cmp -s - <(printf '%s\n' $(TOOLS_FILES) | sort) || \
		echo "warning: TOOLS_FILES in Makefile differs from tools/ install() rules; make uninstall will miss files" >&2

uninstall: uninstall-module uninstall-tools

uninstall-module:
	rm -f $(MOD_DEST)/smcr.ko
	$(if $(DEST),,[ ! -d /lib/modules/$(KVER) ] || depmod -a $(KVER))

uninstall-tools:
	rm -f $(addprefix $(DEST)$(abspath $(PREFIX))/,$(TOOLS_FILES))

# DKMS builds, with dkms.conf's MAKE line, from a copy of the module's
# sources as git sees them (tracked or not ignored: no build/); make dkms
# installs for KVER now, DKMS for every kernel installed later.
dkms: dkms-add
	dkms install smcr/$(VERSION) -k $(KVER)

dkms-add: dkms-remove
	@set -e; mkdir -p $(DKMS_SRC); \
	if git -C $(TOP) rev-parse --git-dir >/dev/null 2>&1; then \
		git -C $(TOP) ls-files -z --cached --others --exclude-standard \
			-- $(DKMS_FILES) | tar -C $(TOP) --null -T - \
			--ignore-failed-read -cf - | tar -C $(DKMS_SRC) -xf -; \
	else \
		cp -r $(addprefix $(TOP)/,$(DKMS_FILES)) $(DKMS_SRC)/; \
	fi
	dkms add smcr/$(VERSION)

dkms-remove:
	@command -v dkms >/dev/null || { echo "dkms is not installed (apt-get install dkms)" >&2; exit 1; }
	@if dkms status -m smcr -v $(VERSION) 2>/dev/null | grep -q .; then \
		echo "dkms remove smcr/$(VERSION) --all"; \
		dkms remove smcr/$(VERSION) --all; \
	fi
	rm -rf $(DKMS_SRC)

clean:
	rm -rf $(BUILD)

help:
	@sed -n '3,/^$$/p' Makefile
