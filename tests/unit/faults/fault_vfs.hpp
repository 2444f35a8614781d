// Fault injection under the SQLite store (SQLite's own testing habit): a VFS that wraps the
// platform's default one and can fail the Nth write or sync from now, or act as a full disk
// (every write fails with SQLITE_FULL), and memory methods that can fail the Nth
// allocation from now. Installed as the process's default VFS and allocator before SQLite starts
// (a static initializer of this test program), so the store's own VFS stacks on top of it.
#pragma once

#include <cstdint>

namespace parley::testing {

// The Nth write (of any file of any connection) from now fails once with SQLITE_IOERR_WRITE.
void fail_write_after(std::int64_t n);
// The Nth sync from now fails once with SQLITE_IOERR_FSYNC.
void fail_sync_after(std::int64_t n);
// The Nth allocation SQLite asks for from now fails once (SQLITE_NOMEM inside SQLite).
void fail_allocation_after(std::int64_t n);
// From the Nth write from now until clear_faults, every write fails with SQLITE_FULL. (A real full
// disk still takes writes into space a file already has, and the store reserves its write-ahead
// log ahead: failing every write is the harder case.)
void fill_disk_after(std::int64_t n);
// Turns every fault off.
void clear_faults();

// How many faults were injected since the process started: a test asserts it hit one.
std::int64_t injected_faults();

}  // namespace parley::testing
