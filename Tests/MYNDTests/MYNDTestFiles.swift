import Foundation
import TestSupport

/// The real MYND files of `../shared/realdata/mynd` (nil, with a printed reason, when absent).
enum MYNDTestFiles {
    static let uuid = "565C1BB8-F700-46DE-9508-EFAA70288D44"
    static let questionnaireName = "q_initial_1_0_0_\(uuid).json"
    static let recordingName = "r_rest_1_2_1_\(uuid).hdf"

    static var folder: URL? { TestSupport.realData("mynd") }
    static var questionnaire: URL? { folder?.appendingPathComponent(questionnaireName) }
    static var recording: URL? { folder?.appendingPathComponent(recordingName) }

    /// Writes `text` to a new temporary file of that name and returns its path.
    static func write(_ text: String, name: String) -> String {
        let url = TestSupport.temporaryFolder().appendingPathComponent(name)
        try? Data(text.utf8).write(to: url)
        return url.path
    }
}
