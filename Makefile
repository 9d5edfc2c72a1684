# SPDX-License-Identifier: GPL-2.0
#
# smcr: top-level build and test entry points.
#
#   make                 smcr.ko for KDIR (default: running kernel, else
#                        Debian 12's 6.12 headers) + the C++ tools
#   make modules-all     smcr.ko for stock 6.12, stock 6.1 and the debug kernel
#   make check           install deps, build everything, run KUnit and
#                        selftests in VMs; ends with "N passed, N failed"
#   make demo            boot two VMs and run an unmodified program over AF_SMC
#   make deps            install the Debian packages the tree needs
#   make checkpatch      checkpatch.pl --strict on the kernel sources
#
# W=1 and C=1 are passed to Kbuild.

SHELL := /bin/bash
TOP := $(CURDIR)
BUILD := $(TOP)/build

STOCK_612 := $(notdir $(firstword $(wildcard /lib/modules/6.12.*-amd64)))
STOCK_61 := $(notdir $(firstword $(wildcard /lib/modules/6.1.*-amd64)))

RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
ifeq ($(wildcard $(RUNNING_KDIR)/Makefile),)
KDIR ?= /lib/modules/$(STOCK_612)/build
else
KDIR ?= $(RUNNING_KDIR)
endif

# The module output directory is named after the kernel release as uname -r
# shows it in the guest: /lib/modules/<release>/build -> <release>.
kdir_release = $(if $(filter /lib/modules/%/build,$(1)),$(patsubst /lib/modules/%/build,%,$(1)),$(shell cat $(1)/include/config/kernel.release))

KBUILD_OPTS := $(if $(W),W=$(W)) $(if $(C),C=$(C))
KSRC := Kbuild net include uapi kunit

DEBUG_KERNEL := tools/testing/vm/debug-kernel.sh

.PHONY: all module modules-all module-debug tools deps check demo clean \
	checkpatch help

all: module tools

# $(call build-module,KDIR): out-of-tree build in build/mod/<release>, a
# tree of symlinks to the sources, so several kernels build side by side.
define build-module
	@set -e; out=$(BUILD)/mod/$(call kdir_release,$(1)); \
	mkdir -p $$out; \
	for d in $(KSRC); do cp -asf $(TOP)/$$d $$out/; done; \
	$(MAKE) -C $(1) M=$$out $(KBUILD_OPTS) modules
endef

module:
	$(call build-module,$(KDIR))

modules-all: module-debug
	$(call build-module,/lib/modules/$(STOCK_612)/build)
	$(call build-module,/lib/modules/$(STOCK_61)/build)

module-debug:
	@kdir=$$($(DEBUG_KERNEL) --print-kdir) && \
		$(MAKE) --no-print-directory module KDIR=$$kdir

tools:
	cmake -S tools -B $(BUILD)/tools -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
	cmake --build $(BUILD)/tools -j$$(nproc)

deps:
	@scripts/install-deps.sh

check: deps
	@$(DEBUG_KERNEL)
	$(MAKE) modules-all tools
	tools/testing/check.sh

demo: deps
	$(MAKE) module KDIR=/lib/modules/$(STOCK_612)/build
	$(MAKE) tools
	tools/testing/vm/run --kernel 6.12 --vms 2 -- tools/demo/demo.sh

checkpatch:
	@cp=$${CHECKPATCH:-$$HOME/.cache/smcr/checkpatch.pl}; \
	perl $$cp --no-tree --strict --terse -f \
		$$(git ls-files 'net/*.[ch]' 'include/*.h' 'kunit/*.c' 'uapi/*.h')

clean:
	rm -rf $(BUILD)

help:
	@sed -n '3,15p' Makefile
