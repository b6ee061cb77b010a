// A helper for fault tests of the write path (scripts/kill-test.sh, scripts/fault-tests.sh).
//
//   SubDashFaultProbe init FILE                      a fresh state file (catalog beside it)
//   SubDashFaultProbe writer FILE                    save renewals in a loop until killed
//   SubDashFaultProbe save FILE [--fsize-limit N]    one appending save; prints "saved" or the error
//   SubDashFaultProbe check FILE                     verify the file and its journal; prints the version
//   SubDashFaultProbe kill-test DIR [--kills N] [--seed S] [--simulator SUBDASH]
//                                                    SIGKILL writers at random moments, check after each;
//                                                    with --simulator the writer is `SUBDASH simulate --fast
//                                                    DIR/state.json` on a file made beforehand
//   SubDashFaultProbe history FILE [--plan-changes N] [--simulator-output SIM.jsonl]
//                                                    verify a file the real subdash wrote against its journal;
//                                                    N plan changes confirmed; every notification the
//                                                    simulator printed present once, in order
//
// Exit status: 0 ok, 1 the checked property failed (or the save failed), 2 usage.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import DashModel

let args = Array(CommandLine.arguments.dropFirst())
func usage() -> Never {
  FileHandleOut.err("usage: SubDashFaultProbe init|writer|save|check FILE, history FILE [--plan-changes N] [--simulator-output F], or kill-test DIR [--kills N] [--seed S] [--simulator SUBDASH]")
  exit(2)
}
func option(_ name: String) -> String? {
  guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
  return args[i + 1]
}
guard args.count >= 2 else { usage() }
let target = args[1]

switch args[0] {
case "init":
  do { try ProbeState.create(at: target) } catch { FileHandleOut.err(error.description); exit(1) }
case "writer":
  while true {
    do { try ProbeState.saveOne(at: target) } catch { FileHandleOut.err(error.description); exit(1) }
  }
case "save":
  if let limit = option("--fsize-limit").flatMap({ rlim_t($0) }) {
    // "Disk full" without privileges: writes past the limit fail with EFBIG instead of
    // raising SIGXFSZ, which is ignored here.
    signal(SIGXFSZ, SIG_IGN)
    var r = rlimit(rlim_cur: limit, rlim_max: limit)
    if setrlimit(Int32(RLIMIT_FSIZE.rawValue), &r) != 0 { FileHandleOut.err("setrlimit failed"); exit(2) }
  }
  do {
    try ProbeState.saveOne(at: target)
    print("saved")
  } catch {
    print(error.description)
    exit(1)
  }
case "check":
  switch ProbeState.check(target) {
  case .success(let v): print("version \(v.version), journal \(v.committedBytes) committed bytes + \(v.leftoverBytes) left over")
  case .failure(let why): print("FAILED: \(why)"); exit(1)
  }
case "kill-test":
  let kills = option("--kills").flatMap { Int($0) } ?? 200
  let seed = option("--seed").flatMap { UInt64($0) } ?? 1
  let writer: any KillTarget = option("--simulator").map { SimulatorTarget(subdash: $0) } ?? ProbeWriterTarget()
  exit(KillTest(dir: target, kills: kills, seed: seed, target: writer).run() ? 0 : 1)
case "history":
  let planChanges = option("--plan-changes").flatMap { Int($0) }
  switch WriterAccounting.check(target, simulatorOutput: option("--simulator-output"), planChanges: planChanges) {
  case .success(let account): print("history ok: \(account)")
  case .failure(let why): print("history FAILED: \(why)"); exit(1)
  }
default:
  usage()
}
