// CoreValues: the values every room shares, with no knowledge of subscriptions.
//
// What it holds: the JSON codec (a parser that says where an error is, by line, column and JSON
// path; a writer that keeps the order and the fields it was given; projections for large
// histories), time as a value (instants in milliseconds, spans, ISO 8601 periods, calendars,
// sandbox and simulation rates, formats), text helpers (plurals, clipping untrusted text for a log
// or a terminal, path names as text) and the ordered parallel map.
//
// What it may import: the Swift standard library, the C library, Dispatch and FoundationEssentials
// (dates' formats in Time/); nothing of ours. It
// opens no file and reads no clock. Threads only inside one call: `OrderedParallelMap` spreads a
// pure function over the cores and returns when every result is in.
