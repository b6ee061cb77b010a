import Testing
@testable import DashModel
@testable import CoreValues

/// `--grace` takes what its help lists, and its help lists what it takes (issue 22 §6): the help
/// and the error are built from `GraceSetting.acceptedForms`, and each form named there parses.
@Suite struct GraceSettingFormsTests {
  @Test(arguments: GraceSetting.acceptedExamples)
  func everyFormTheHelpNamesIsAccepted(_ text: String) throws {
    #expect(GraceSetting.acceptedForms.contains(text))
    _ = try GraceSetting(parsing: text)
  }

  @Test func aWordNoFormReadsIsRefusedWithTheForms() {
    #expect(throws: SimTextError.self) { try GraceSetting(parsing: "forever") }
    do {
      _ = try GraceSetting(parsing: "forever")
    } catch {
      #expect(error.message.contains(GraceSetting.acceptedForms))
    }
  }
}
