import Testing
@testable import DashModel

@Test func formatNameIsStable() { #expect(DashModelInfo.stateFormat == "subdash-state/1") }
