import Foundation
import Testing
import TestSupport
@testable import MYND

@Suite("SampleData/mynd (constructed)")
struct SampleDataTests {
    let tool = TestSupport.executable("mynd-parse")
    let folder = TestSupport.packageRoot.appendingPathComponent("SampleData/mynd")

    @Test("The generator rewrites the committed files byte for byte")
    func regenerates() throws {
        let copy = TestSupport.temporaryFolder()
        try FileManager.default.copyItem(at: folder.appendingPathComponent("make_sample.py"),
                                         to: copy.appendingPathComponent("make_sample.py"))
        _ = try TestSupport.python("import runpy, sys; sys.argv = [sys.argv[1]]; runpy.run_path(sys.argv[0], run_name='__main__')",
                                   [copy.appendingPathComponent("make_sample.py").path])
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("q_") || $0.hasPrefix("r_") }
        try #require(!names.isEmpty, "no q_/r_ file in \(folder.path)")
        for name in names {
            #expect(try Data(contentsOf: copy.appendingPathComponent(name)) == Data(contentsOf: folder.appendingPathComponent(name)),
                    "\(name)")
        }
    }

    @Test("The sample: eyes-closed alpha above eyes-open alpha, a skipped question, labels from the definitions")
    func sample() throws {
        let inputs = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasPrefix("q_") || $0.hasPrefix("r_") }.sorted().map { folder.appendingPathComponent($0).path }
        let out = TestSupport.temporaryFolder().appendingPathComponent("sample").path
        let result = try TestSupport.run(tool, inputs + ["--definitions", folder.appendingPathComponent("definitions").path,
                                                         "-o", out])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        let script = """
        import sys, pandas as pd
        bp = pd.read_csv(sys.argv[1] + '/band_power.csv')
        a = bp[(bp.scope == 'condition') & (bp.band == 'alpha')].pivot(index='channel_1020', columns='condition', values='power_uv2')
        print(bool((a['EyesClosed'] > 2 * a['EyesOpen']).all()))
        q = pd.read_csv(sys.argv[1] + '/answers.csv')
        mood = q[q.question_id == 'mood'].iloc[0]
        print(mood.answered, mood.value_raw, pd.isna(mood.value_num), q[q.question_id == 'sleepHours'].value_num.iloc[0])
        print(q[q.question_id == 'birthday'].value_date.iloc[0])
        """
        let lines = try TestSupport.python(script, [out]).split(separator: "\n").map(String.init)
        #expect(lines == ["True", "False no answer True 7.0", "1990-03-17"])
    }
}
