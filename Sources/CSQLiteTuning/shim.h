#include <sqlite3.h>

/// `sqlite3_config` is variadic, which Swift cannot call: this wrapper turns off SQLite's
/// memory statistics (`SQLITE_CONFIG_MEMSTATUS`). With them on, every allocation and free
/// inside SQLite takes a process-wide mutex to count bytes. It must run before SQLite is
/// initialized (before the first connection opens); afterwards it returns SQLITE_MISUSE and
/// changes nothing.
static inline int places_sqlite_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
