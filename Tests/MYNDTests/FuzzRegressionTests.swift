import Foundation
import Testing
import TestSupport
@testable import MYND

/// Inputs on which a fuzz target of Fuzz/ found a fault in BrainBatch's code (README, "Fuzzing"), kept under
/// Tests/MYNDTests/Regressions/: each is now refused with an error that names the file, in process and by the tool.
@Suite("Fuzz regressions (MYND)")
struct FuzzRegressionTests {
    static let uuid = "3F2504E0-4F89-41D3-9A0C-0305E82C3301"

    static func regression(_ name: String) -> URL {
        TestSupport.packageRoot.appendingPathComponent("Tests/MYNDTests/Regressions").appendingPathComponent(name)
    }

    /// The small HDF5 seed of Fuzz/seeds with /Recording/Data's second dimension read as 16,777,220 instead of 4
    /// (a corrupt dataspace; newer libhdf5 refuses it as larger than its maximum, 1.10 does not): 45 × 16,777,220
    /// doubles, 6 GB, were allocated for a 13.7 KB file (FuzzMYNDHDF5, out-of-memory in `readDoubles`). The extent
    /// is now checked against the file's size before anything is allocated.
    @Test("A 13.7 KB recording whose dataspace claims 6 GB is refused before anything is allocated")
    func dataspaceBeyondTheFile() throws {
        let path = Self.regression("data-claims-6GB.hdf").path
        do {
            let recording = try RecordingReader.inProcess.read(path)
            Issue.record("read \(recording.sampleCount) samples from a corrupt file")
        } catch {
            #expect(error.description.hasPrefix(path), "\(error.description)")
            #expect(error.description.contains("more than a file of 13754 bytes can hold"), "\(error.description)")
        }

        // The tool: one error line naming the file (exit 65), not a reader that died of a signal.
        let dir = TestSupport.temporaryFolder()
        let input = dir.appendingPathComponent("r_rest_1_2_1_\(Self.uuid).hdf").path
        try FileManager.default.copyItem(atPath: path, toPath: input)
        let result = try TestSupport.run(TestSupport.executable("mynd-parse"), [input, "-o", dir.appendingPathComponent("out.h5").path])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("mynd-parse: error: \(input):"), "\(result.stderr)")
        #expect(result.stderr.contains("more than a file of 13754 bytes can hold"), "\(result.stderr)")
        #expect(!result.stderr.contains("died of signal"), "\(result.stderr)")
    }
}
