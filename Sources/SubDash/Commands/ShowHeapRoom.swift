#if canImport(Glibc)
import Glibc
#endif

/// Room on the heap, in 2 MiB pages, for the objects that parsing a state file of many megabytes
/// makes (`show` of a 100,000-transaction file: ~170 MB of small objects while its history was
/// read whole; peak RSS fell by 54 MB when `show` began to read it in part).
///
/// Why: the system's transparent huge pages are used only where a program asks for them
/// ("madvise"), so the heap grows a 4 KiB page at a time, and each first touch of a page is a
/// fault: 40,000 of them, a quarter of `show --json`'s time. One block is taken from the heap
/// (not mapped apart, so it is the heap's own room), advised for huge pages and given back, with
/// trimming off so the heap keeps it: the parse's objects then fill it a 2 MiB page per fault.
/// Nothing is read or written through it; a C library or kernel that declines changes nothing.
enum ShowHeapRoom {
  static func prepare(forFileAt path: String) {
    #if canImport(Glibc)
    var info = stat()
    guard stat(path, &info) == 0, info.st_size >= 16 << 20 else { return }
    let huge = 2 << 20
    // A document parsed whole is about 1.6 times the file (one whose history is read in part is
    // less; room left untouched costs nothing); more than a gigabyte is never reserved.
    let size = min(Int(info.st_size) * 2, 1 << 30)
    _ = mallopt(trimThreshold, Int32.max)
    _ = mallopt(mmapMax, 0)
    defer { _ = mallopt(mmapMax, 65_536) }  // glibc's default: large arrays are mapped again
    guard let block = malloc(size) else { return }
    let start = (Int(bitPattern: block) + huge - 1) & ~(huge - 1)
    let end = (Int(bitPattern: block) + size) & ~(huge - 1)
    if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) {
      _ = madvise(aligned, end - start, MADV_HUGEPAGE)
    }
    free(block)
    #endif
  }

  #if canImport(Glibc)
  // <malloc.h>, which the Glibc module does not bring in: M_TRIM_THRESHOLD and M_MMAP_MAX.
  private static let trimThreshold: Int32 = -1
  private static let mmapMax: Int32 = -4
  #endif
}

#if canImport(Glibc)
/// glibc's `int mallopt(int param, int value)` (<malloc.h>).
@_silgen_name("mallopt")
private func mallopt(_ param: Int32, _ value: Int32) -> Int32
#endif
