import Foundation
import Testing
import TestSupport
@testable import MYND

/// End-to-end runs of the built `mynd-parse`.
@Suite("mynd-parse on the command line")
struct CommandLineTests {
    let tool = TestSupport.executable("mynd-parse")
    static let uuid = MYNDTestFiles.uuid

    /// An ASCII-armored OpenPGP message whose PKESK packet names `keyID` (the app's `.asc` form).
    static func armored(keyID: [UInt8]) -> String {
        let packet: [UInt8] = [0x84, 12, 3] + keyID + [1] + Array(repeating: 0x42, count: 40)
        return "-----BEGIN PGP MESSAGE-----\nVersion: ObjectivePGP\n\n\(Data(packet).base64EncodedString())\n=abcd\n-----END PGP MESSAGE-----\n"
    }

    /// Writes an HDF5 file with h5py: a small valid MYND recording, then `mutation` (Python) applied to `f`.
    static func constructedRecording(_ path: String, mutation: String = "") throws {
        let script = """
        import sys, h5py, numpy as np
        f = h5py.File(sys.argv[1], 'w')
        n, fs = 2 * 60 * 256 + 4000, 256
        rng = np.random.default_rng(1)
        t = np.arange(n) / fs
        data = 850 + 10 * np.sin(2 * np.pi * 10 * t)[:, None] + rng.normal(0, 3, (n, 4))
        rec = f.create_group('Recording')
        rec.create_dataset('Data', data=data)
        marker = np.zeros((n, 1), dtype='i8')
        for s, c in [(1, 910), (300, 910), (800, 310), (1000, 320), (1000 + 15360, 330), (17000, 410), (17300, 420), (17300 + 15360, 430), (n - 500, 910)]:
            marker[s] = c
        rec.create_dataset('Marker', data=marker)
        ts = (1588434129712318 + (np.arange(n) * 1e6 / fs)).astype('i8').reshape(n, 1); ts[0] = 0
        rec.create_dataset('TimeStamp', data=ts)
        st = h5py.string_dtype('ascii')
        rec.create_dataset('ChannelNames', data=np.array([[b'Left Ear', b'Left Front', b'Right Front', b'Right Ear']], dtype=object), dtype=st)
        for k, v in [('Session', 2), ('Run', 1), ('Version', 3)]:
            rec.attrs.create(k, np.array([[v]], dtype='i8'))
        for k, v in [('subjectID', '\(uuid)'), ('day', '1'), ('sessionID', '2'), ('runID', '1'), ('device', 'muse'),
                     ('samplingRate', '256'), ('channelCount', '4'), ('locale', 'en'),
                     ('recordingStartTime', '05/02/2020, 5:42:09 PM GMT+02:00')]:
            rec.attrs.create(k, np.array([v], dtype=object), dtype=st)
        par = f.create_group('Paradigm')
        par.attrs.create('Paradigm', np.array(['rest'], dtype=object), dtype=st)
        for k, v in [('BaseTime', -3), ('TrialTime', 60), ('ConditionCount', 2)]:
            par.attrs.create(k, np.array([[v]], dtype='i8'))
        par.create_dataset('ConditionLabels', data=np.array([[b'EyesOpen', b'EyesClosed']], dtype=object), dtype=st)
        par.create_dataset('ConditionMarkers', data=np.array([[320, 420]], dtype='i8'))
        par.create_dataset('BaseMarkers', data=np.array([[310, 410]], dtype='i8'))
        \(mutation)
        f.close()
        """
        _ = try TestSupport.python(script, [path])
    }

    func folder() -> URL { TestSupport.temporaryFolder() }

    @Test("The real files into HDF5: every table read back with h5py and pandas, provenance, events as in the spec",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func realFilesReadBack() throws {
        let q = try #require(MYNDTestFiles.questionnaire), r = try #require(MYNDTestFiles.recording)
        let definitions = try #require(MYNDTestFiles.folder)
        let out = folder().appendingPathComponent("out.h5").path
        let result = try TestSupport.run(tool, [q.path, r.path, "-o", out, "--definitions", definitions.path, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let script = """
        import sys, json, h5py, pandas as pd, numpy as np
        f = h5py.File(sys.argv[1], 'r')
        t = {k: pd.DataFrame({c: f[k][c][()] for c in f[k].attrs['columns']}) for k in f}
        print(sorted(t))
        print({k: len(v) for k, v in sorted(t.items())})
        ev = t['events']
        print([int(m) for m in ev['marker']], list(ev['onset_s']))
        print([x.decode() for x in ev['trial_type']])
        a = t['answers']
        print(a.loc[a.question_id == b'handedness', 'value_label'].iloc[0].decode(), a['value_num'].isna().sum())
        bp = t['band_power']
        al = bp[(bp.band == b'alpha') & (bp.scope == b'condition')]
        print([round(x, 2) for x in al['power_uv2']])
        print(f['recordings']['n_samples'].attrs['unit'], f['band_power']['power_uv2'].attrs['unit'])
        print(json.loads(f.attrs['parameters'])['date_order'] if 'parameters' in f.attrs else sorted(f.attrs))
        """
        let lines = try TestSupport.python(script, [out]).split(separator: "\n").map(String.init)
        #expect(lines[0] == "['anomalies', 'answers', 'band_power', 'epochs', 'events', 'quality', 'quality_summary', 'recordings', 'samples']")
        // samples: one row per retained sample (as many as the signal file of this recording holds).
        #expect(lines[1] == "{'anomalies': 0, 'answers': 6, 'band_power': 80, 'epochs': 2, 'events': 9, 'quality': 1156, 'quality_summary': 4, 'recordings': 1, 'samples': 37068}")
        #expect(lines[2] == "[910, 910, 310, 320, 330, 410, 420, 430, 910] [0.0, 2.578125, 7.54296875, 10.640625, 70.640625, 74.625, 77.671875, 137.765625, 141.84375]")
        #expect(lines[3].hasPrefix("['welcome/prompt', 'welcome/fixation', 'EyesOpen/prompt', 'EyesOpen/task'"))
        #expect(lines[4] == "Lefthanded 2")  // work and age have no number
        #expect(lines[5] == "[6.26, 0.84, 0.98, 6.94, 7.95, 2.2, 1.8, 11.48]")
        #expect(lines[6] == "1 µV²")
        print(lines.dropFirst(7).joined(separator: "\n"))
    }

    @Test("Determinism: the same inputs give byte-identical HDF5",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func deterministic() throws {
        let q = try #require(MYNDTestFiles.questionnaire), r = try #require(MYNDTestFiles.recording)
        let out = folder().appendingPathComponent("same.h5").path
        #expect(try TestSupport.run(tool, [q.path, r.path, "-o", out, "-q"]).status == 0)
        let first = try Data(contentsOf: URL(fileURLWithPath: out))
        #expect(try TestSupport.run(tool, [q.path, r.path, "-o", out, "-q"]).status == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == first)
    }

    @Test("CSV folder read back with pandas: types, NA, the questionnaire alone guesses the date order",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func csvReadBack() throws {
        let q = try #require(MYNDTestFiles.questionnaire)
        let out = folder().appendingPathComponent("tables").path
        let result = try TestSupport.run(tool, [q.path, "-o", out])
        #expect(result.status == 0)
        #expect(result.stderr.contains("1 W_DATE_ORDER_GUESSED"))
        let script = """
        import sys, pandas as pd
        a = pd.read_csv(sys.argv[1] + '/answers.csv')
        print(a['day'].dtype, a['value_num'].dtype, a['answered'].dtype, a['question_type'].isna().all())
        print(a['session_start_utc'].iloc[0], a.loc[a.question_id == 'age', 'value_date'].iloc[0])
        an = pd.read_csv(sys.argv[1] + '/anomalies.csv')
        print(list(an['code']))
        r = pd.read_csv(sys.argv[1] + '/recordings.csv')
        print(len(r), list(r.columns)[:3])
        """
        let lines = try TestSupport.python(script, [out]).split(separator: "\n").map(String.init)
        #expect(lines == ["int64 float64 bool True", "2020-05-02T15:09:05Z 1983-05-02", "['W_DATE_ORDER_GUESSED']",
                          "0 ['source_file', 'subject_id', 'encrypted']"])
    }

    @Test("Encrypted .asc, empty, foreign and broken files: one message naming the file, exit 65, no output")
    func badFiles() throws {
        let dir = folder()
        func file(_ name: String, _ bytes: Data) throws -> String {
            let url = dir.appendingPathComponent(name)
            try bytes.write(to: url)
            return url.path
        }
        let asc = try file("r_rest_1_2_1_\(Self.uuid).hdf.asc",
                           Data(Self.armored(keyID: [0xFB, 0xEB, 0x35, 0xFB, 0x47, 0x5E, 0x6E, 0x8A]).utf8))
        let out = dir.appendingPathComponent("out.h5").path
        var result = try TestSupport.run(tool, [asc, "-o", out])
        #expect(result.status == 65)
        #expect(result.stderr == "mynd-parse: error: \(asc): encrypted OpenPGP message (ASCII armor, key 0xFBEB35FB475E6E8A); expected HDF5. Decrypt with the study's private key (gpg --output r_rest_1_2_1_\(Self.uuid).hdf --decrypt r_rest_1_2_1_\(Self.uuid).hdf.asc) and run again\n")
        #expect(!FileManager.default.fileExists(atPath: out))

        let cases: [(String, Data, String)] = [
            ("q_initial_1_0_0_\(Self.uuid).json", Data("  \n\t".utf8), "empty file"),
            ("r_rest_1_2_1_\(Self.uuid).hdf", Data("GIF89a hello world".utf8), "expected a MYND questionnaire (JSON) or recording (HDF5), found \"GIF89a"),
            ("q_motivation_1_1_1_\(Self.uuid).json", Data("{\"title\": \"motivation\", \"day\": 1,".utf8), "1:34: expected a key in double quotes, found the end of the file"),
            ("answers.json", Data("{\"title\": \"motivation\", \"day\": {\"a\": 1}}".utf8), "1:32: expected a string or int value for \"day\", found {"),
            ("initial_en.json", Data("{\"identifier\": \"initial\", \"questions\": []}".utf8), "found a questionnaire definition"),
            ("data.bin", Data([0xC1, 0x00, 0x01, 0x02]), "encrypted OpenPGP message (binary)"),
        ]
        for (name, bytes, expected) in cases {
            let path = try file(name, bytes)
            result = try TestSupport.run(tool, [path, "-o", out])
            #expect(result.status == 65, "\(name)")
            #expect(result.stderr.hasPrefix("mynd-parse: error: \(path)"), "\(name): \(result.stderr)")
            #expect(result.stderr.contains(expected), "\(name): \(result.stderr)")
        }
        #expect(try TestSupport.run(tool, [dir.appendingPathComponent("absent.hdf").path, "-o", out]).status == 66)
    }

    @Test("A truncated copy of the real recording: one message naming the file, exit 65",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func truncatedRealRecording() throws {
        let dir = folder()
        let cut = dir.appendingPathComponent("r_rest_1_2_9_\(Self.uuid).hdf")
        try Data(contentsOf: try #require(MYNDTestFiles.recording)).prefix(40_000).write(to: cut)
        let out = dir.appendingPathComponent("out.h5").path
        let result = try TestSupport.run(tool, [cut.path, "-o", out])
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("mynd-parse: error: \(cut.path): "), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("Malformed HDF5 layouts: missing objects, wrong shapes; a constructed valid file passes")
    func malformedLayouts() throws {
        let dir = folder()
        let out = dir.appendingPathComponent("out").path
        let good = dir.appendingPathComponent("r_rest_1_2_1_\(Self.uuid).hdf").path
        try Self.constructedRecording(good)
        let ok = try TestSupport.run(tool, [good, "-o", out, "-q"])
        #expect(ok.status == 0, "\(ok.stderr)")
        let events = try String(contentsOfFile: out + "/events.csv", encoding: .utf8)
        #expect(events.split(separator: "\n").count == 10)
        let cases: [(String, String)] = [
            ("del f['Paradigm']", ":/Paradigm: expected the group /Paradigm of a MYND recording, found nothing"),
            ("del f['Recording/Marker']; f['Recording'].create_dataset('Marker', data=np.zeros((n - 1, 1), dtype='i8'))",
             ":/Recording/Marker: expected \(2 * 60 * 256 + 4000) rows like /Recording/Data, found \(2 * 60 * 256 + 4000 - 1)"),
            ("del f['Recording/TimeStamp']", ":/Recording/TimeStamp: expected the dataset /Recording/TimeStamp, found nothing"),
            ("del f['Recording/Data']", ":/Recording/Data: expected the dataset"),
            ("del f['Recording/ChannelNames']; rec.create_dataset('ChannelNames', data=np.array([[b'a', b'b', b'c']], dtype=object), dtype=st)",
             ":/Recording/ChannelNames: expected 4 channel names like the columns of /Recording/Data, found 3"),
            ("del f['Recording/Data']; rec.create_dataset('Data', data=np.zeros((n, 2, 2)))", "expected a 2-D dataset"),
            ("del f['Recording/Data']; rec.create_dataset('Data', data=np.array([[b'x'] * 4] * n, dtype=object), dtype=st)",
             "expected numbers"),
            ("del f['Recording']; f.create_group('Something')", ":/Recording: expected the group /Recording"),
        ]
        for (index, (mutation, expected)) in cases.enumerated() {
            let path = dir.appendingPathComponent("r_rest_1_2_\(10 + index)_\(Self.uuid).hdf").path
            try Self.constructedRecording(path, mutation: mutation)
            let result = try TestSupport.run(tool, [path, "-o", out])
            #expect(result.status == 65, "\(mutation)")
            #expect(result.stderr == "mynd-parse: error: \(path)\(expected)\n" || result.stderr.contains(expected),
                    "\(mutation): \(result.stderr)")
        }
    }

    @Test("Oddities become anomalies: oscillator, row 0 kept, no rate, no goodbye, unknown marker")
    func recoverable() throws {
        let dir = folder()
        let path = dir.appendingPathComponent("r_rest_1_2_1_\(Self.uuid).hdf").path
        try Self.constructedRecording(path, mutation: """
        ts[0] = 1588434129712318; del rec['TimeStamp']; rec.create_dataset('TimeStamp', data=ts)
        del rec.attrs['samplingRate']; del rec.attrs['device']; rec.attrs.create('device', np.array(['oscillator'], dtype=object), dtype=st)
        marker[n - 500] = 0; marker[n - 600] = 377; del rec['Marker']; rec.create_dataset('Marker', data=marker)
        """)
        let out = dir.appendingPathComponent("out").path
        let result = try TestSupport.run(tool, [path, "-o", out])
        #expect(result.status == 0)
        let anomalies = try String(contentsOfFile: out + "/anomalies.csv", encoding: .utf8)
        for code in ["W_ROW0", "W_DEVICE", "W_RATE", "W_UNKNOWN_MARKER", "W_NO_GOODBYE"] {
            #expect(anomalies.contains(",\(code),"), "\(code)")
        }
        #expect(result.stderr.contains("W_ROW0") && result.stderr.contains("(see the anomalies table)"))
        let recordings = try String(contentsOfFile: out + "/recordings.csv", encoding: .utf8)
        #expect(recordings.contains(",oscillator,TRUE,128.0,"))
    }

    @Test("Implausible numbers do not crash: a 1e12 Hz rate and a 1e300 s TrialTime are not believed")
    func implausibleNumbers() throws {
        let dir = folder()
        let path = dir.appendingPathComponent("r_rest_1_2_1_\(Self.uuid).hdf").path
        try Self.constructedRecording(path, mutation: """
        del rec.attrs['samplingRate']; rec.attrs.create('samplingRate', np.array(['1e12'], dtype=object), dtype=st)
        del par.attrs['TrialTime']; par.attrs.create('TrialTime', np.array([[1e300]]))
        """)
        let out = dir.appendingPathComponent("out").path
        let result = try TestSupport.run(tool, [path, "-o", out])
        #expect(result.status == 0, "\(result.stderr)")
        let anomalies = try String(contentsOfFile: out + "/anomalies.csv", encoding: .utf8)
        #expect(anomalies.contains(",W_RATE,") && anomalies.contains("/Paradigm@TrialTime"))
        let epochs = try String(contentsOfFile: out + "/epochs.csv", encoding: .utf8)
        #expect(epochs.split(separator: "\n").count == 1)
    }

    @Test("--keep-going: the good file's tables are written, the failure listed, exit 65; folders are walked",
          .enabled(if: MYNDTestFiles.present, "../shared/realdata/mynd is absent"))
    func keepGoingAndFolders() throws {
        let q = try #require(MYNDTestFiles.questionnaire)
        let dir = folder()
        let bad = dir.appendingPathComponent("q_initial_1_0_1_\(Self.uuid).json").path
        try Data("{".utf8).write(to: URL(fileURLWithPath: bad))
        let good = dir.appendingPathComponent(MYNDTestFiles.questionnaireName).path
        try FileManager.default.copyItem(atPath: q.path, toPath: good)
        try Data("{}".utf8).write(to: dir.appendingPathComponent("message.json"))
        let out = TestSupport.temporaryFolder().appendingPathComponent("out").path
        let result = try TestSupport.run(tool, [dir.path, "-o", out, "--keep-going"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("failed inputs:"))
        let answers = try String(contentsOfFile: out + "/answers.csv", encoding: .utf8)
        #expect(answers.split(separator: "\n").count == 7)
        let anomalies = try String(contentsOfFile: out + "/anomalies.csv", encoding: .utf8)
        #expect(anomalies.contains("message.json,NA,NA,info,I_IGNORED"))
    }
}
