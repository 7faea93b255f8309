import Foundation
import Testing
import TestSupport

/// `--report PATH.html` on every table tool (issue 17; docs/reports.md): each page of a SampleData run is
/// self-contained and well-formed, has its kind's plots, plots the tables' numbers (read back from the SVG's
/// pixels by `Tests/ReportPages/check_report.py`), is byte-identical on a re-run, replaces only a report a
/// BrainBatch tool wrote, and renders in headless Chromium without a console error
/// (`Tests/ReportPages/browser_check.py`; screenshots kept under `.build/report-screenshots/`).
@Suite("HTML reports (--report)")
struct ReportTests {
    /// A tool's report run.
    struct Kind: CustomTestStringConvertible, Sendable {
        let tool: String
        /// Inputs relative to the package root, or to `../shared/realdata` when `realData`.
        let inputs: [String]
        var options: [String] = []
        /// The plot classes the page must have.
        let plots: [String]
        /// The `check_report.py --readback` kind (a plot compared with its table), or `nil`.
        var readback: String?
        var realData = false
        /// A subcommand, put before the inputs.
        var subcommand: [String] = []
        var testDescription: String { "\(([tool] + subcommand).joined(separator: " "))\(realData ? " (real data)" : "")" }
    }

    static let sampleKinds: [Kind] = [
        Kind(tool: "bt-decode", inputs: ["SampleData/brainiac/clean_v2.bin", "SampleData/brainiac/faulty_v2.bin",
                                         "SampleData/brainiac/restart_mixed.bin"],
             plots: ["plot-psd", "plot-band-power", "plot-quality", "plot-zones", "plot-gaps", "plot-trace"],
             readback: "brainiac"),
        Kind(tool: "rt-stats", inputs: ["SampleData/braintracker/BrainTrackerResultsFile.csv",
                                        "SampleData/braintracker/brain_data_raw.csv"],
             plots: ["plot-score", "plot-latency", "plot-seth"], readback: "braintracker"),
        Kind(tool: "ilog-parse", inputs: [
            "SampleData/interactlog/data/2021-12-08/Anonymous Participant (Trial 1) 2021-12-08 - 14-03-27.txt",
            "SampleData/interactlog/data/2023-07-04/P01 (Trial 2) 2023-07-04 - 10-15-02.txt",
            "SampleData/interactlog/experiments/6610E5B7-1005-4295-9B04-BD9A46F1454F/P07 (Trial 1) 2023-10-17 - 14-02-11.txt",
        ], plots: ["plot-stroke-replay", "plot-timeline"], readback: "interactlog"),
        Kind(tool: "mynd-parse", inputs: ["SampleData/mynd"], options: ["--definitions", "SampleData/mynd/definitions"],
             plots: ["plot-psd", "plot-quality", "plot-markers"], readback: "mynd"),
        Kind(tool: "nt-analyze", inputs: ["SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"],
             plots: ["plot-targets", "plot-accuracy", "plot-stimulus-raster", "plot-trial-eeg"], readback: "mindaffect"),
        Kind(tool: "nt-analyze", inputs: ["SampleData/mindaffect/mindaffectBCI_sample_261123_1200.txt"],
             plots: ["plot-decoding-curve", "plot-impulse-response"], readback: "decode", subcommand: ["decode"]),
    ]

    static let realKinds: [Kind] = [
        Kind(tool: "rt-stats", inputs: ["braintracker/BrainTrackerResultsFile.csv",
                                        "braintracker/BrainTrackerResultsFile (thru9-4).csv"],
             plots: ["plot-score", "plot-latency", "plot-seth"], realData: true),
        Kind(tool: "nt-analyze", inputs: ["mindaffect/mindaffectBCI_exampledata.txt"],
             plots: ["plot-targets", "plot-accuracy", "plot-stimulus-raster", "plot-trial-eeg"], realData: true),
        Kind(tool: "nt-analyze", inputs: ["mindaffect/mindaffectBCI_exampledata.txt"],
             plots: ["plot-decoding-curve", "plot-impulse-response"], readback: "decode", realData: true, subcommand: ["decode"]),
        Kind(tool: "mynd-parse", inputs: ["mynd/q_initial_1_0_0_565C1BB8-F700-46DE-9508-EFAA70288D44.json",
                                          "mynd/r_rest_1_2_1_565C1BB8-F700-46DE-9508-EFAA70288D44.hdf"],
             options: ["--definitions", "mynd"], plots: ["plot-psd", "plot-quality", "plot-markers"], realData: true),
    ]

    static let script = TestSupport.packageRoot.appendingPathComponent("Tests/ReportPages/check_report.py").path
    static let browserScript = TestSupport.packageRoot.appendingPathComponent("Tests/ReportPages/browser_check.py").path

    /// Headless Chromium, where installed (scripts/setup.sh installs Debian's `chromium-headless-shell`).
    static let chromium: String? = ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs the kind with `--report` into `folder` (tables as a CSV folder `out/`); returns the report's path.
    static func run(_ kind: Kind, in folder: URL, extra: [String] = []) throws -> String {
        let base = kind.realData ? TestSupport.realDataRoot : TestSupport.packageRoot
        let resolve = { (path: String) in base.appendingPathComponent(path).path }
        var options = kind.options
        if let index = options.firstIndex(of: "--definitions") { options[index + 1] = resolve(options[index + 1]) }
        let report = folder.appendingPathComponent("\(([kind.tool] + kind.subcommand).joined(separator: "-")).html").path
        let out = folder.appendingPathComponent("out").path + "/"
        let result = try TestSupport.run(TestSupport.executable(kind.tool),
                                         kind.subcommand + kind.inputs.map(resolve) + options + ["-o", out, "--report", report, "-q"] + extra)
        try #require(result.status == 0, "\(kind.tool) --report: \(result.stderr)")
        return report
    }

    static func check(_ kind: Kind, report: String, folder: URL) throws -> [String: Any] {
        var arguments = [script, report, "--plots", kind.plots.joined(separator: ",")]
        if let readback = kind.readback { arguments += ["--readback", readback, folder.appendingPathComponent("out").path] }
        let result = try TestSupport.run("/usr/bin/env", ["python3"] + arguments)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                "check_report.py: \(result.stdout) \(result.stderr)")
        #expect(result.status == 0, "\(kind.tool): \(json["problems"] ?? result.stderr)")
        return json
    }

    @Test("A report on SampleData: self-contained, well-formed XML, sealed, its kind's plots with units on every axis, the tables' numbers, the same bytes on a re-run",
          arguments: sampleKinds)
    func sampleReport(_ kind: Kind) throws {
        let folder = TestSupport.temporaryFolder()
        let report = try Self.run(kind, in: folder)
        let json = try Self.check(kind, report: report, folder: folder)
        // The plotted points are the table's values to within a pixel (coordinates are written to 0.1 px).
        let readback = try #require(json["readback_px"] as? [String: Double], "no read-back for \(kind.tool)")
        #expect(!readback.isEmpty)
        for (what, pixels) in readback { #expect(pixels < 0.5, "\(kind.tool): \(what) is \(pixels) px off the table") }
        // Determinism: the same command again replaces the report (its own) with the same bytes.
        let first = try Data(contentsOf: URL(fileURLWithPath: report))
        _ = try Self.run(kind, in: folder)
        #expect(try Data(contentsOf: URL(fileURLWithPath: report)) == first, "\(kind.tool): a re-run changed the report")
        #expect(first.count < 600_000, "\(kind.tool): report of \(first.count) bytes")
    }

    @Test("A report on the real files", .enabled(if: TestSupport.hasRealData(""), "../shared/realdata is absent"),
          arguments: realKinds)
    func realReport(_ kind: Kind) throws {
        let folder = TestSupport.temporaryFolder()
        _ = try Self.check(kind, report: try Self.run(kind, in: folder), folder: folder)
    }

    // MARK: - Nothing lost

    @Test("A report never replaces what BrainBatch did not write, nor an input; a bad --report path is a usage error")
    func nothingLost() throws {
        let kind = Self.sampleKinds[1]
        let tool = TestSupport.executable(kind.tool)
        let input = TestSupport.packageRoot.appendingPathComponent(kind.inputs[0]).path
        let folder = TestSupport.temporaryFolder()
        func run(_ arguments: [String]) throws -> TestSupport.ProcessResult { try TestSupport.run(tool, arguments + ["-q"]) }
        let out = folder.appendingPathComponent("out.h5").path

        // A page of someone else's: refused (73) before anything is read or written.
        let foreign = folder.appendingPathComponent("notes.html")
        try Data("<html><body>my notes</body></html>\n".utf8).write(to: foreign)
        var result = try run([input, "-o", out, "--report", foreign.path])
        #expect(result.status == 73)
        #expect(result.stderr.contains(foreign.path))
        #expect(try Data(contentsOf: foreign) == Data("<html><body>my notes</body></html>\n".utf8))
        #expect(!FileManager.default.fileExists(atPath: out))

        // A BrainBatch report edited since: refused too.
        let report = folder.appendingPathComponent("r.html")
        result = try run([input, "-o", out, "--report", report.path])
        try #require(result.status == 0, "\(result.stderr)")
        var edited = try Data(contentsOf: report)
        edited.insert(contentsOf: Data("<!-- my remark -->".utf8), at: 0)
        try edited.write(to: report)
        result = try run([input, "-o", out, "--report", report.path])
        #expect(result.status == 73)
        #expect(try Data(contentsOf: report) == edited)

        // An input as the report: 73, unchanged.
        let htmlInput = folder.appendingPathComponent("results.html")
        try FileManager.default.copyItem(atPath: input, toPath: htmlInput.path)
        result = try run([htmlInput.path, "-o", out, "--report", htmlInput.path])
        #expect(result.status == 73)
        #expect(try TestSupport.pythonSHA256(ofFile: htmlInput.path) == TestSupport.pythonSHA256(ofFile: input))

        // Inside a CSV folder output, not .html, or in a folder that does not exist.
        result = try run([input, "-o", folder.appendingPathComponent("tables").path + "/", "--report",
                          folder.appendingPathComponent("tables/r.html").path])
        #expect(result.status == 64)
        result = try run([input, "-o", out, "--report", folder.appendingPathComponent("r.txt").path])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--report"))
        result = try run([input, "-o", out, "--report", folder.appendingPathComponent("absent/r.html").path])
        #expect(result.status == 73)

        // No temporary file is left behind.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".tmp-") }
        #expect(leftovers.isEmpty)
    }

    @Test("--keep-going: the report lists the failed input with its message")
    func failedInputListed() throws {
        let folder = TestSupport.temporaryFolder()
        let bad = folder.appendingPathComponent("BrainTrackerResultsFile (broken).csv")
        try Data((0..<4096).map { UInt8(($0 * 89 + 7) % 251) }).write(to: bad)
        let good = TestSupport.packageRoot.appendingPathComponent("SampleData/braintracker/BrainTrackerResultsFile.csv").path
        let report = folder.appendingPathComponent("r.html").path
        let result = try TestSupport.run(TestSupport.executable("rt-stats"),
                                         [good, bad.path, "-o", folder.appendingPathComponent("out.h5").path,
                                          "--report", report, "--keep-going", "-q"])
        #expect(result.status == 65)
        let page = try String(contentsOfFile: report, encoding: .utf8)
        #expect(page.contains("id=\"failed-inputs\""))
        #expect(page.contains(bad.lastPathComponent))
    }

    // MARK: - Brainiac's streaming report

    @Test("bt-decode: the raw trace is around the largest gap, and without the analysis the report's own Welch gives the analysis' spectrum")
    func brainiacStreaming() throws {
        let folder = TestSupport.temporaryFolder()
        let capture = folder.appendingPathComponent("gaps.bin").path
        // Packets 1000–1002 lost (6 samples from sample 2000, 8 s), and packet 5000 (2 samples).
        let synth = try TestSupport.run(TestSupport.executable("bt-synth"),
                                        ["-o", capture, "--duration-s", "60", "--noise-uv", "5", "--seed", "3",
                                         "--drop-packets", "1000,1001,1002,5000", "-q"])
        try #require(synth.status == 0, "\(synth.stderr)")
        let full = folder.appendingPathComponent("full.html").path, bare = folder.appendingPathComponent("bare.html").path
        for (report, extra) in [(full, [String]()), (bare, ["--no-analysis"])] {
            let result = try TestSupport.run(TestSupport.executable("bt-decode"),
                                             [capture, "-o", folder.appendingPathComponent("\(extra.isEmpty ? "a" : "b").h5").path,
                                              "--report", report, "-q"] + extra)
            try #require(result.status == 0, "\(result.stderr)")
        }
        let page = try String(contentsOfFile: full, encoding: .utf8)
        #expect(page.contains("the largest gap: 6 samples lost at 8 s of segment 0"))
        // The four PSD lines are the same points with and without the analysis.
        func psd(_ text: String) -> [Substring] {
            guard let start = text.range(of: "id=\"capture-1-psd\""), let end = text.range(of: "</svg>", range: start.upperBound..<text.endIndex) else { return [] }
            return text[start.upperBound..<end.lowerBound].split(separator: "\n").filter { $0.hasPrefix("<polyline") }
        }
        let withAnalysis = psd(page), without = psd(try String(contentsOfFile: bare, encoding: .utf8))
        #expect(withAnalysis.count == 4)
        #expect(withAnalysis == without)
    }

    // MARK: - A real browser

    @Test("Every SampleData page loads in headless Chromium with no console error, failed load or request, and its screenshot is neither blank nor cut off",
          .enabled(if: chromium != nil, "headless Chromium is not installed (scripts/setup.sh installs chromium-headless-shell)"))
    func browser() throws {
        let folder = TestSupport.temporaryFolder()
        var pages: [String] = []
        for kind in Self.sampleKinds {
            let sub = folder.appendingPathComponent(([kind.tool] + kind.subcommand).joined(separator: "-"))
            try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
            pages.append(try Self.run(kind, in: sub))
        }
        try Self.checkInBrowser(pages, screenshots: "reports")
    }

    /// Loads `pages` in headless Chromium (`browser_check.py`) and checks what a reader sees: no console error,
    /// failed load or script; not blank; not cut off; no wider than the window; with `plots`, at least one plot
    /// drawn. The screenshots are kept under `.build/report-screenshots/<screenshots>/`.
    static func checkInBrowser(_ pages: [String], screenshots: String, plots: Bool = true) throws {
        let shots = TestSupport.packageRoot.appendingPathComponent(".build/report-screenshots/" + screenshots).path
        let result = try TestSupport.run("/usr/bin/env", ["python3", Self.browserScript, Self.chromium!, shots] + pages)
        try #require(result.status == 0, "browser_check.py: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == pages.count)
        for line in lines {
            let page = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = (page["page"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } ?? "?"
            #expect((page["errors"] as? [String])?.isEmpty == true, "\(name): \(page["errors"] ?? "")")
            #expect(page["scripts"] as? Int == 0, "\(name) has scripts")
            if plots { #expect((page["plots"] as? Int ?? 0) > 0, "\(name): no plot rendered") }
            // Not blank: an honest page of plots and tables inks a few per cent of its pixels.
            #expect((page["ink"] as? Double ?? 0) > 0.01, "\(name): screenshot nearly blank (\(page["ink"] ?? ""))")
            // Not cut off: the quarter-scale screenshot is as tall as the page, with ink down to its footer.
            let height = page["height"] as? Int ?? 0, shot = page["screenshot"] as? [Int] ?? [0, 0]
            #expect(abs(shot[1] - height / 4) <= 1, "\(name): screenshot \(shot) for a page \(height) px tall")
            #expect((page["last_inked_row"] as? Int ?? 0) >= shot[1] - 40, "\(name): nothing drawn at the bottom")
            #expect(page["width"] as? Int ?? 0 <= 1280, "\(name): wider than the window")
        }
    }
}
