import DashModel
import CoreValues

/// The words of a long simulation step: its confirmation and its progress on the status line.
enum LongStepText {
  /// "advancing: 750 notifications written, clock 2026-05-02 06:15:00 of 2026-05-03 00:00:00 (26%)…"
  static func progress(_ p: StepProgress, seconds: Bool) -> String {
    let done = p.target > p.clock ? "" : " (done)"
    return "advancing: \(counted(p.notifications, "notification")) written, clock \(Format.dateShort(p.clock, seconds: true, year: true)) of \(Format.dateShort(p.target, seconds: true, year: true))\(done)…"
  }

  static func confirmation(_ step: PendingStep) -> [String] {
    let about = step.size.complete ? "\(step.size.events)" : "about \(step.size.estimate)"
    return [
      "\(step.command.name.prefix(1).uppercased() + step.command.name.dropFirst()): at this file's rate that applies \(about) events (renewals and the like, each with its notification), more than the \(LongStep.confirmAbove) a step applies without asking.",
      "It is saved \(LongStep.eventsPerSave) events at a time, the status line counting; a subdash deliver following this file sends every notification.",
    ]
  }
}
