// SimulationRuns: the simulator run over files, for tests and what-if runs.
//
// What it holds: scenario scripts (`subdash scenario`: a script of App Store events with
// expectations, parsed with line numbers, run on a scratch copy), and populations (many
// subscribers drawn from a template and advanced together). The rules of each step are the
// model's (`Simulator`); this room only reads the scripts, keeps the workspace and writes each
// step through the store.
//
// What it may import: DashModel, RetentionMessaging, SubscriberStorage, SubscriberImport and
// CoreValues; never a view, a server or a network client.
