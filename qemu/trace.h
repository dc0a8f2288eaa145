/*
 * Copyright (c) 2026 The switchx2-emu authors
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */
#include "trace/trace-hw_net_switchx2.h"
