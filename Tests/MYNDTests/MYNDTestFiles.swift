import Foundation
import TestSupport

/// The real MYND files of `../shared/realdata/mynd` (nil when absent). A test that reads them carries
/// `.enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent")` and unwraps each with
/// `try #require(...)`, so a file missing from a present folder fails the test.
enum MYNDTestFiles {
    static let uuid = "565C1BB8-F700-46DE-9508-EFAA70288D44"
    static let questionnaireName = "q_initial_1_0_0_\(uuid).json"
    static let recordingName = "r_rest_1_2_1_\(uuid).hdf"

    /// Whether `../shared/realdata/mynd` exists: the condition of the tests that read it.
    static let present = TestSupport.hasRealData("mynd")

    static var folder: URL? { TestSupport.realData("mynd") }
    static var questionnaire: URL? { TestSupport.realData("mynd/\(questionnaireName)") }
    static var recording: URL? { TestSupport.realData("mynd/\(recordingName)") }

    /// Writes `text` to a new temporary file of that name and returns its path.
    static func write(_ text: String, name: String) throws -> String {
        let url = TestSupport.temporaryFolder().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
