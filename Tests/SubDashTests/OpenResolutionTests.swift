import Testing
@testable import SubDash

/// `subdash [FILE]` decides what to open before it takes the terminal; these read like the
/// command lines a user types.
@Suite struct OpenResolutionTests {
  func opening(_ file: String? = nil, database: Bool = false, demoPopulation: Bool = false, directory: Bool = false,
               now: Bool = false, noIndex: Bool = false, helper: Bool = true) throws -> Open.Opening {
    try Open.opening(file: file, database: database, demoPopulation: demoPopulation, fileIsDirectory: directory,
                     atAnotherMoment: now, noIndex: noIndex, listHelperFound: helper)
  }

  @Test func aFileOpensItsDashboardAndNothingOpensTheDemo() throws {
    #expect(try opening("alice.json") == .dashboard("alice.json"))
    #expect(try opening() == .demo)
  }

  @Test func aDirectoryOpensTheIndexedListWhenTheHelperIsThere() throws {
    #expect(try opening("subs", directory: true) == .indexedList("subs"))
    #expect(try opening("subs", directory: true, helper: false) == .list("subs"))
    #expect(try opening("subs", directory: true, now: true) == .list("subs"), "rows at another moment are read here")
    #expect(try opening("subs", directory: true, noIndex: true) == .list("subs"))
  }

  @Test func theTeamDatabaseOpensItsListOrOneSubscriber() throws {
    #expect(try opening(database: true) == .databaseList)
    #expect(try opening("2000000000000001", database: true) == .databaseSubscriber("2000000000000001"))
  }

  @Test func theDemoPopulationTakesNoFileAndNoDatabase() throws {
    #expect(try opening(demoPopulation: true) == .populationDemo)
    #expect(throws: (any Error).self) { try opening("alice.json", demoPopulation: true) }
    #expect(throws: (any Error).self) { try opening(database: true, demoPopulation: true) }
  }
}
