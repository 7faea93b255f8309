import Foundation
import Testing
import TestSupport

/// `nt-analyze` end to end through the built executable.
@Suite("nt-analyze command line")
struct CommandLineTests {
    let tool = TestSupport.executable("nt-analyze")

    static let trialColumns = "source_file,trial,phase,mode,first_line,t_start_ms,t_start_s,duration_ms,n_frames,n_objects,objids,cued_target,cue_agreement,selected,correct,time_to_selection_ms,sel_after_last_frame_ms,online_yest,online_perr"

    @Test("example file → HDF5 and CSV, read back with h5py and pandas against an independent Python count",
          .enabled(if: TestSupport.hasRealData("mindaffect"), "../shared/realdata/mindaffect is absent"))
    func exampleReadBack() throws {
        let input = try #require(TestSupport.realData("mindaffect/mindaffectBCI_exampledata.txt")).path
        let out = TestSupport.temporaryFolder()
        let h5 = out.appendingPathComponent("out.h5").path
        let csv = out.appendingPathComponent("csv").path
        let first = try TestSupport.run(tool, [input, "-o", h5, "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let second = try TestSupport.run(tool, [input, "-o", csv, "-q"])
        #expect(second.status == 0, "\(second.stderr)")
        let script = """
        import sys, re, collections, h5py, numpy as np, pandas as pd
        src, h5, csv = sys.argv[1], sys.argv[2], sys.argv[3]
        # Independent count of complete lines per NAME, straight from the text.
        counts = collections.Counter()
        with open(src, 'rb') as f:
            for raw in f.read().split(b'\\n'):
                m = re.match(rb'rts:-?\\d+ sts:-?\\d+  t:([A-Z]+) ts:-?\\d+.* <-\\S+$', raw)
                if m: counts[m.group(1).decode()] += 1
        with h5py.File(h5, 'r') as f:
            def table(name):
                g = f[name]
                return pd.DataFrame({k: g[k][()] for k in g})[[c.decode() if isinstance(c, bytes) else c for c in g.attrs['columns']]]
            msgs = table('messages')
            got = msgs.groupby(msgs['name'].str.decode('utf-8'))['count'].sum().to_dict()
            assert got == dict(counts), (got, counts)
            trials = table('trials')
            assert len(trials) == 20
            pred = trials[trials['phase'] == b'prediction']
            assert len(pred) == 10 and pred['correct'].sum() == 9, pred['correct']
            assert f['trials/correct'].attrs['logical'] == 1
            assert (trials['correct'][:10] == -128).all()
            assert abs(pred['time_to_selection_ms'].mean() - 4443.5) < 1e-9
            s = table('summary')
            assert s['n_samples'][0] == 44406 and s['fs_nominal_hz'][0] == 200.0
            assert abs(s['fs_est_hz'][0] - 199.987) < 5e-4
            assert bool(s['header_swapped'][0])
            samples = f['samples']
            assert samples['ch1_uv'].dtype == np.float32 and samples['ch1_uv'].shape == (44406,)
            assert samples['ch1_uv'][0] == np.float32(-8.384855)
            assert f['samples/ch1_uv'].attrs['unit'] in (b'\\xc2\\xb5V', 'µV')
            t = samples['t_ms'][()]
            assert np.all(np.diff(t) >= 0)
            assert t[-1] - t[606] == 219009
            stim = f['stimuli']
            assert stim['obj25'].shape == (5205,)
            modes = table('modes')
            assert [m.decode() for m in modes['mode']][:5] == ['idle', 'ElectrodeQuality', 'idle', 'idle', 'Calibration.supervised']
            an = table('anomalies')
            assert b'W_TRUNC' in set(an['code'])
            print(','.join(f['trials'].attrs['columns'][:19].astype(str)))
        t = pd.read_csv(csv + '/trials.csv')
        assert t['correct'].dtype == object or t['correct'].dtype == bool
        assert t['correct'].iloc[10:].astype(bool).sum() == 9
        assert t['cued_target'].tolist() == [2,7,9,5,8,1,3,5,9,5,5,3,19,16,18,20,19,21,22,20]
        samples = pd.read_csv(csv + '/samples.csv')
        assert list(samples.columns) == ['source_file','sample','t_ms','t_s','ch1_uv','ch2_uv','ch3_uv','ch4_uv']
        stim = pd.read_csv(csv + '/stimuli.csv')
        assert list(stim.columns) == ['source_file','event','t_ms'] + ['obj%d' % i for i in range(26)]
        summary = pd.read_csv(csv + '/summary.csv')
        assert list(summary.columns)[:20] == ['source_file','n_lines','n_messages','n_packets','n_samples','n_events','n_trials','fs_est_hz','fs_nominal_hz','n_channels','header_fs','header_nch','header_swapped','clock','timestamp_rule','first_packet_samples','packet_samples_median','packet_samples_max','zero_advance_packets','sts_step_median_ms']
        """
        let printed = try TestSupport.python(script, [input, h5, csv])
        #expect(printed.trimmingCharacters(in: .whitespacesAndNewlines) == Self.trialColumns)
    }

    func write(_ text: String, name: String = "mindaffectBCI_t.txt") -> String {
        let path = TestSupport.temporaryFolder().appendingPathComponent(name).path
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
        return path
    }

    static let good = "rts:1000 sts:1000  t:DATAPACKET ts:5 v[2x1]:[1.0,2.0,] <-/1.2.3.4:5\n"
    static let bad = "rts:1010 sts:1010  t:DATAPACKET ts:6 v[2x2]:[1.0,2.0,] <-/1.2.3.4:5\n"

    @Test("a malformed line: exit 65 with file:line:col; --skip-bad-lines: exit 0 and an anomalies row")
    func malformedLine() throws {
        let input = write(Self.good + Self.bad + Self.good)
        let out = TestSupport.temporaryFolder().appendingPathComponent("o").path
        let failed = try TestSupport.run(tool, [input, "-o", out])
        #expect(failed.status == 65)
        #expect(failed.stderr.contains("\(input):2:"))
        #expect(failed.stderr.contains("E_SHAPE") && failed.stderr.contains("declared v[2x2] but found 1 samples"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let skipped = try TestSupport.run(tool, [input, "-o", out, "--skip-bad-lines"])
        #expect(skipped.status == 0, "\(skipped.stderr)")
        let anomalies = try String(contentsOfFile: out + "/anomalies.csv", encoding: .utf8)
        #expect(anomalies.contains(",2,55,error,E_SHAPE,"))
        let samples = try String(contentsOfFile: out + "/samples.csv", encoding: .utf8)
        #expect(samples.split(separator: "\n").count == 3)
    }

    @Test("empty and packet-less files: exit 65 E_NODATA; missing file 66; bad option 64")
    func exitCodes() throws {
        let out = TestSupport.temporaryFolder().appendingPathComponent("o.h5").path
        let empty = try TestSupport.run(tool, [write(" \n"), "-o", out])
        #expect(empty.status == 65)
        #expect(empty.stderr.contains("E_NODATA"))
        let noPackets = try TestSupport.run(tool, [write("rts:1 sts:1  t:NEWTARGET ts:5 <-/1.2.3.4:5\n"), "-o", out])
        #expect(noPackets.status == 65)
        #expect(try TestSupport.run(tool, ["/nonexistent/x.txt", "-o", out]).status == 66)
        #expect(try TestSupport.run(tool, [write(Self.good), "-o", out, "--iti-ms", "0"]).status == 64)
        #expect(try TestSupport.run(tool, [write(Self.good), "-o", out, "--codes", "x.png"]).status == 64)
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("--keep-going: the good file is written, the bad one listed, exit 65")
    func keepGoing() throws {
        let good = write(Self.good + Self.good)
        let bad = write(Self.bad)
        let out = TestSupport.temporaryFolder().appendingPathComponent("o").path
        let result = try TestSupport.run(tool, [good, bad, "-o", out, "--keep-going"])
        #expect(result.status == 65)
        let summary = try String(contentsOfFile: out + "/summary.csv", encoding: .utf8)
        #expect(summary.contains(good) && !summary.contains(bad))
    }

    @Test("--timestamps pymindaffect on the sample file: integer sample times, rule in the summary and provenance")
    func compatTimestamps() throws {
        let input = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt").path
        let out = TestSupport.temporaryFolder().appendingPathComponent("o").path
        let result = try TestSupport.run(tool, [input, "-o", out, "--timestamps", "pymindaffect", "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let script = """
        import sys, json, pandas as pd, numpy as np
        out = sys.argv[1]
        s = pd.read_csv(out + '/samples.csv')
        assert (s['t_ms'] == np.floor(s['t_ms'])).all()
        assert (s['t_ms'][:100] == s['t_ms'][0]).all()          # the first packet all at T0
        assert pd.read_csv(out + '/summary.csv')['timestamp_rule'][0] == 'pymindaffect'
        assert json.load(open(out + '/provenance.json'))['parameters']['timestamp_rule'] == 'pymindaffect'
        print('ok')
        """
        #expect(try TestSupport.python(script, [out]).contains("ok"))
    }

    @Test("several inputs: tables concatenated, channel and object columns are the union")
    func severalInputs() throws {
        let sample = TestSupport.packageRoot.appendingPathComponent("SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt").path
        let small = write(Self.good + "rts:1001 sts:1001  t:STIMULUSEVENT ts:6 v[2]:{9,1}{0,1} <-/1.2.3.4:6\n" + Self.good)
        let out = TestSupport.temporaryFolder().appendingPathComponent("o.h5").path
        let result = try TestSupport.run(tool, [sample, small, "-o", out, "-q"])
        #expect(result.status == 0, "\(result.stderr)")
        let script = """
        import sys, h5py, numpy as np, pandas as pd
        f = h5py.File(sys.argv[1], 'r')
        def table(name):
            g = f[name]
            return pd.DataFrame({k: g[k][()] for k in g})
        s = table('samples')
        files = s['source_file'].str.decode('utf-8')
        small = s[files == sys.argv[2]]
        assert len(small) == 2 and np.isnan(small['ch3_uv']).all() and np.isnan(small['ch4_uv']).all()
        assert (small['ch1_uv'] == 1.0).all()
        st = table('stimuli')
        assert list(f['stimuli'].attrs['columns'][3:].astype(str)) == ['obj%d' % i for i in [0, 1, 2, 3, 4, 5, 6, 9]]
        assert f['stimuli/obj9'].attrs['missing_value'] == -2147483648
        big = st[st['source_file'].str.decode('utf-8') == sys.argv[3]]
        assert (big['obj9'] == -2147483648).all() and len(big) == 856
        summary = table('summary')
        assert len(summary) == 2 and list(summary['n_channels']) == [4, 2]
        print('ok')
        """
        #expect(try TestSupport.python(script, [out, small, sample]).contains("ok"))
    }

    @Test("codes --check recognises both PMB tables as the regenerated families",
          .enabled(if: TestSupport.hasRealData("mindaffect"), "../shared/realdata/mindaffect is absent"))
    func codesCheck() throws {
        for (name, family, count) in [("mgold_65_6532_psk_60hz.txt", "65_6532", 65), ("mgold_61_6521_psk_60hz.txt", "61_6521", 47)] {
            let table = try #require(TestSupport.realData("mindaffect/\(name)"))
            let result = try TestSupport.run(tool, ["codes", "--check", table.path])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(result.stderr.contains("exactly the regenerated family \(family)"))
            let rows = result.stdout.split(separator: "\n").dropFirst()
            #expect(rows.count == count)
            #expect(rows.allSatisfy { $0.hasSuffix(",0,false") && $0.contains(",\(family),") })
        }
    }
}
