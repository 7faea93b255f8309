import Foundation
import Tables
import Testing
import TestSupport
@testable import SignalFiles

/// The bytes of written signal files against vectors computed by hand from the EDF/EDF+/BDF specs and the
/// BrainVision Core Data Format, and the physical-range rule (docs/bids.md, "Quantisation").
@Suite("Signal files, byte by byte")
struct SignalFileBytesTests {
    /// Writes 3 frames of two channels at 2 Hz with one annotation; returns the file's bytes and the summary.
    static func write(_ kind: SignalFileKind, values: [Double] = [-1.5, 10, 0, 20, 2.25, 30],
                      start: SignalStart? = nil) throws -> (bytes: [UInt8], summary: SignalFileSummary, path: String) {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("x." + kind.rawValue).path
        let writer = makeSignalFileWriter(kind, path: path)
        try writer.begin(SignalDescription(channels: [SignalChannel(label: "A", unit: "uV"),
                                                      SignalChannel(label: "B", type: "MISC", unit: "uV", grid: 1)],
                                           samplingRate: 2, start: start, equipment: "Test rig"))
        try writer.append(values, channelCount: 2)
        writer.annotate(SignalAnnotation(onset: 0.5, duration: 0.25, description: "BAD_lost_samples"))
        let summary = try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        return (bytes, summary, path)
    }

    static func text(_ bytes: [UInt8], _ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    @Test("EDF+ header fields, at the offsets of the spec")
    func edfHeader() throws {
        let (bytes, summary, _) = try Self.write(.edf, start: SignalStart(year: 2020, month: 5, day: 2, hour: 15,
                                                                           minute: 42, second: 9.5))
        #expect(Self.text(bytes, 0..<8) == "0       ")
        #expect(Self.text(bytes, 8..<16) == "X X X X ")
        #expect(Self.text(bytes, 88..<128).hasPrefix("Startdate 02-MAY-2020 X X Test_rig  "))
        #expect(Self.text(bytes, 168..<176) == "02.05.20")
        #expect(Self.text(bytes, 176..<184) == "15.42.09")
        #expect(Self.text(bytes, 184..<192) == "1024    ")      // 256 × (2 channels + annotations + 1)
        #expect(Self.text(bytes, 192..<197) == "EDF+C")
        #expect(Self.text(bytes, 236..<244) == "2       ")      // 3 frames at 2 per record: 2 records
        #expect(Self.text(bytes, 244..<252) == "1       ")      // 1 s per record
        #expect(Self.text(bytes, 252..<256) == "3   ")
        #expect(Self.text(bytes, 256..<304) == "A               B               EDF Annotations ")
        let units = 256 + 3 * 16 + 3 * 80
        #expect(Self.text(bytes, units..<(units + 24)) == "uV      uV              ")
        // Channel A spans −1.5…2.25 µV: pmin −2, pmax 3; 5 µV over at most 65,535 steps: 8e-5 µV (62,500 steps).
        // Channel B lies on a 1 µV grid and spans 10…30: steps of 1, pmin 10, pmax 30.
        let pmin = units + 24
        #expect(Self.text(bytes, pmin..<(pmin + 24)) == "-2      10      -1      ")
        #expect(Self.text(bytes, (pmin + 24)..<(pmin + 48)) == "3       30      1       ")
        #expect(Self.text(bytes, (pmin + 48)..<(pmin + 72)) == "-32768  -32768  -32768  ")
        #expect(Self.text(bytes, (pmin + 72)..<(pmin + 96)) == "29732   -32748  32767   ")
        let samples = pmin + 96 + 3 * 80
        #expect(Self.text(bytes, samples..<(samples + 8)) == "2       ")
        #expect(summary.channels[0].resolution == 5.0 / 62_500)
        #expect(summary.channels[1].exact)
        #expect(summary.paddedFrames == 1)
    }

    @Test("EDF+ data records: little-endian digits per channel, then the TALs; the last record padded")
    func edfRecords() throws {
        let (bytes, _, _) = try Self.write(.edf)
        let header = 1024
        let annotationBytes = Int(Self.text(bytes, (header - 32 * 3 - 8)..<(header - 32 * 3)).trimmingCharacters(in: .whitespaces))! * 2
        let recordBytes = 2 * 2 * 2 + annotationBytes
        #expect(bytes.count == header + 2 * recordBytes)
        func digit(_ offset: Int) -> Int { Int(Int16(bitPattern: UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)) }
        // A: −1.5 → round(0.5 / 8e-5) − 32768 = 6250 − 32768; 0 → 25000 − 32768.
        #expect(digit(header) == -26_518)
        #expect(digit(header + 2) == -7_768)
        // B: 10 → −32768, 20 → −32758.
        #expect(digit(header + 4) == -32_768)
        #expect(digit(header + 6) == -32_758)
        let tal = Array(bytes[(header + 8)..<(header + 8 + annotationBytes)])
        let expected = Array("+0\u{14}\u{14}\u{0}+0.5\u{15}0.25\u{14}BAD_lost_samples\u{14}\u{0}".utf8)
        #expect(Array(tal.prefix(expected.count)) == expected)
        #expect(tal.dropFirst(expected.count).allSatisfy { $0 == 0 })
        // Record 2: A = 2.25 → 53125 − 32768, then the padding copies it.
        let second = header + recordBytes
        #expect(digit(second) == 20_357)
        #expect(digit(second + 2) == 20_357)
        let tal2 = Array(bytes[(second + 8)..<(second + 8 + annotationBytes)])
        let expected2 = Array("+1\u{14}\u{14}\u{0}+1.5\u{15}0.5\u{14}BAD_padding\u{14}\u{0}".utf8)
        #expect(Array(tal2.prefix(expected2.count)) == expected2)
    }

    @Test("BDF+: 0xFF BIOSEMI, 24-bit digits, BDF Annotations")
    func bdf() throws {
        let (bytes, summary, _) = try Self.write(.bdf)
        #expect(bytes[0] == 0xFF)
        #expect(Self.text(bytes, 1..<8) == "BIOSEMI")
        #expect(Self.text(bytes, 192..<197) == "BDF+C")
        #expect(Self.text(bytes, 288..<304) == "BDF Annotations ")
        // A: 5 µV over at most 16,777,215 steps: 4e-7 µV (12,500,000 steps).
        #expect(summary.channels[0].resolution == 5.0 / 12_500_000)
        let header = 1024
        let digit = Int(Int32(bitPattern: (UInt32(bytes[header]) | UInt32(bytes[header + 1]) << 8
                                           | UInt32(bytes[header + 2]) << 16) << 8) >> 8)
        #expect(digit == -8_388_608 + 1_250_000)   // (−1.5 − (−2)) / 4e-7
    }

    @Test("Unknown start: EDF+'s 01.01.85 and Startdate X")
    func unknownStart() throws {
        let (bytes, _, _) = try Self.write(.edf)
        #expect(Self.text(bytes, 88..<101) == "Startdate X X")
        #expect(Self.text(bytes, 168..<184) == "01.01.8500.00.00")
    }

    @Test("BrainVision: header, markers and float32 samples")
    func brainVision() throws {
        let (_, summary, path) = try Self.write(.brainVision, start: SignalStart(year: 2020, month: 5, day: 2, hour: 15,
                                                                                   minute: 42, second: 9.5))
        #expect(summary.files.map { URL(fileURLWithPath: $0).lastPathComponent } == ["x.eeg", "x.vmrk", "x.vhdr"])
        let header = try String(contentsOfFile: path, encoding: .utf8)
        #expect(header.hasPrefix("Brain Vision Data Exchange Header File Version 1.0\n"))
        for line in ["DataFile=x.eeg", "MarkerFile=x.vmrk", "DataOrientation=MULTIPLEXED", "NumberOfChannels=2",
                     "SamplingInterval=500000", "BinaryFormat=IEEE_FLOAT_32", "Ch1=A,,1,µV", "Ch2=B,,1,µV"] {
            #expect(header.contains("\n" + line + "\n"), "\(line)")
        }
        let markers = try String(contentsOfFile: path.replacingOccurrences(of: ".vhdr", with: ".vmrk"), encoding: .utf8)
        #expect(markers.contains("\nMk1=New Segment,,1,1,0,20200502154209500000\n"))
        #expect(markers.contains("\nMk2=Comment,BAD_lost_samples,2,1,0\n"))   // 0.5 s at 2 Hz: sample 1, 1-based 2
        let data = try Data(contentsOf: URL(fileURLWithPath: path.replacingOccurrences(of: ".vhdr", with: ".eeg")))
        let floats = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(floats == [-1.5, 10, 0, 20, 2.25, 30])
    }

    @Test("The physical range: whole-number limits, the finest step that fits, never finer than the grid")
    func physicalRange() throws {
        // The Brainiac's nV: a span under 16.7 mV is held in 1 nV steps in BDF…
        let brainiac = try #require(PhysicalRange(low: -812.345, high: 1234.567, bits: 24, grid: 0.001))
        #expect(brainiac.resolution == 2047.0 / 2_047_000)
        #expect(brainiac.physicalMinimum == -813 && brainiac.physicalMaximum == 1235)
        #expect(brainiac.digital(-812.345) == -8_388_608 + 655)
        #expect(abs(brainiac.physical(brainiac.digital(1234.567)) - 1234.567) < 1e-9)
        // … a rail-to-rail span (±12.5 mV) in 2 nV steps, still within 1 nV.
        let rails = try #require(PhysicalRange(low: -12_500.0, high: 12_499.618, bits: 24, grid: 0.001))
        #expect(abs(rails.resolution - 0.002) < 1e-15)
        // EDF's 16 bits: 200 µV in 4 nV steps (50,000 of them).
        let edf = try #require(PhysicalRange(low: -100, high: 100, bits: 16, grid: 0.001))
        #expect(abs(edf.resolution - 0.004) < 1e-15)
        // A constant channel still has pmax > pmin.
        let flat = try #require(PhysicalRange(low: 0, high: 0, bits: 16))
        #expect(flat.physicalMaximum == 1 && flat.digitalMaximum > flat.digitalMinimum)
        // Beyond what 8 characters hold: no range.
        #expect(PhysicalRange(low: -20_000_000, high: 0, bits: 16) == nil)
    }

    @Test("An out-of-range spike widens its own channel's range; nothing clips")
    func spikeWidensItsChannel() throws {
        let values: [Double] = [0, 1, 1, 2, 5000, 3, 4, 4]   // a 5 mV spike on A
        let (_, summary, _) = try Self.write(.edf, values: values)
        #expect(summary.channels[0].physicalMaximum == 5000)
        #expect(summary.channels[1].physicalMaximum == 4)
        #expect(summary.channels[1].exact)
    }

    @Test("A value no file can hold is an error naming channel and sample; nothing is left behind",
          arguments: [SignalFileKind.bdf, .edf, .brainVision])
    func notFinite(kind: SignalFileKind) throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("x." + kind.rawValue).path
        let writer = makeSignalFileWriter(kind, path: path)
        try writer.begin(SignalDescription(channels: [SignalChannel(label: "A")], samplingRate: 10))
        // EDF/BDF take frames in on a second thread: the error comes from the next call or from finish().
        #expect(throws: SignalFileError.notFinite(path: path, channel: "A", sample: 4)) {
            try writer.append([1, 2], channelCount: 1)
            try writer.append([3, 4, .nan, 5], channelCount: 1)
            try writer.append([6], channelCount: 1)
            _ = try writer.finish()
        }
        writer.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("BDF of channels on a grid: values on it stored exactly, one between rounded to the nearest step")
    func gridCounts() throws {
        let folder = TestSupport.temporaryFolder()
        let path = folder.appendingPathComponent("x.bdf").path
        let writer = makeSignalFileWriter(.bdf, path: path)
        try writer.begin(SignalDescription(channels: [SignalChannel(label: "A", grid: 0.001),
                                                      SignalChannel(label: "B", grid: 0.001)], samplingRate: 2))
        // Frame-major: A −1.5, 0.001, 2.2506 (between steps: 2.251); B 10, 20.123, −30.004.
        let values: [Double] = [-1.5, 10, 0.001, 20.123, 2.2506, -30.004]
        try writer.append(Array(values[0..<2]), channelCount: 2)
        try writer.append(Array(values[2...]), channelCount: 2)
        let summary = try writer.finish()
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(summary.channels.map(\.resolution) == [0.001, 0.001])
        #expect(summary.channels.map(\.exact) == [true, true])
        // Two records of 2 samples per channel after a 1024-byte header (A, B, annotations).
        let recordBytes = (bytes.count - 1024) / 2
        func read(_ channel: Int, _ sample: Int) -> Double {
            let offset = 1024 + (sample / 2) * recordBytes + channel * 6 + (sample % 2) * 3
            let raw = Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16
            let digit = raw >= 1 << 23 ? raw - (1 << 24) : raw
            let info = summary.channels[channel]
            return Double(info.physicalMinimum!) + Double(digit + (1 << 23)) * info.resolution!
        }
        for (sample, expected) in [-1.5, 0.001, 2.251].enumerated() {
            #expect(abs(read(0, sample) - expected) < 1e-9)
        }
        for (sample, expected) in [10, 20.123, -30.004].enumerated() {
            #expect(abs(read(1, sample) - expected) < 1e-9)
        }
        // A value 2^31 grid steps or more from 0 fits no count: an error naming the channel, nothing left behind.
        let wide = makeSignalFileWriter(.bdf, path: path + ".wide.bdf")
        try wide.begin(SignalDescription(channels: [SignalChannel(label: "A", grid: 0.001)], samplingRate: 2))
        #expect(throws: SignalFileError.rangeTooWide(path: path + ".wide.bdf", channel: "A", low: 0, high: 3e6)) {
            try wide.append([0, 3e6], channelCount: 1)
            _ = try wide.finish()
        }
        wide.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["x.bdf"])
    }

    @Test("Whole grid steps handed over as counts give the file their values give (every format, scratch in memory or spilled)",
          arguments: [(SignalFileKind.bdf, 0.001 as Double?), (.bdf, 0.01), (.bdf, nil), (.edf, 0.001), (.brainVision, 0.001)],
          [SignalScratch.defaultMemoryLimit, 20_000])
    func gridCountsHandedOver(_ format: (kind: SignalFileKind, grid: Double?), scratchMemoryLimit: Int) throws {
        let (kind, grid) = format
        // 2,600 frames of 4 channels in whole nV (a Brainiac's values), handed over in batches of 700 frames.
        let frames = 2_600, channels = 4
        let counts = (0..<(frames * channels)).map { Int32((sin(Double($0) * 0.021) * 80_000).rounded()) - 3 }
        func write(asCounts: Bool) throws -> (files: [String: [UInt8]], storesCounts: Bool) {
            let folder = TestSupport.temporaryFolder()
            let path = folder.appendingPathComponent("x." + kind.rawValue).path
            let writer: SignalFileWriter = kind == .brainVision ? makeSignalFileWriter(kind, path: path)
                : EDFWriter(path: path, kind: kind, scratchMemoryLimit: scratchMemoryLimit)
            try writer.begin(SignalDescription(channels: (0..<channels).map { SignalChannel(label: "C\($0)", grid: grid) },
                                               samplingRate: 250))
            let storesCounts = writer.storesGridCounts
            for start in stride(from: 0, to: frames, by: 700) {
                let batch = Array(counts[(start * channels)..<(min(frames, start + 700) * channels)])
                if asCounts {
                    try writer.append(gridCounts: batch, stepsPerUnit: 1000, channelCount: channels)
                } else {
                    try writer.append(batch.map { Double($0) / 1000 }, channelCount: channels)
                }
            }
            writer.annotate(SignalAnnotation(onset: 2, duration: 0.5, description: "BAD_lost_samples"))
            let summary = try writer.finish()
            var files: [String: [UInt8]] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            }
            #expect(summary.channels.map(\.minimum) == (0..<channels).map { channel in
                Double(stride(from: channel, to: counts.count, by: channels).map { counts[$0] }.min()!) / 1000
            })
            return (files, storesCounts)
        }
        let values = try write(asCounts: false), handed = try write(asCounts: true)
        #expect(!values.files.isEmpty && handed.files == values.files)
        // Only a BDF whose channels share a grid keeps counts (of 1 nV here); the others are handed values.
        #expect(handed.storesCounts == (kind == .bdf && grid != nil))
    }

    @Test("The scratch in memory and spilled to a file give the same bytes (EDF, BDF of doubles, BDF of grid counts)",
          arguments: [(SignalFileKind.edf, nil as Double?), (.bdf, nil), (.bdf, 0.001)])
    func scratchSpill(kind: SignalFileKind, grid: Double?) throws {
        // 40,100 frames of 3 channels (160 whole records of 250 and a last one padded with 150 copies), in batches
        // of 997 frames, or of 30,000 (90,000 values: more than the 65,536 a spilled scratch writes at once).
        let frames = 40_100, channels = 3
        let values = (0..<(frames * channels)).map { index in
            (sin(Double(index) * 0.013) * 120_000).rounded() / 1000 + Double(index % channels)
        }
        func bytes(scratchMemoryLimit: Int, batch: Int) throws -> (bytes: [UInt8], folder: [String]) {
            let folder = TestSupport.temporaryFolder()
            let path = folder.appendingPathComponent("x." + kind.rawValue).path
            let writer = EDFWriter(path: path, kind: kind, scratchMemoryLimit: scratchMemoryLimit)
            try writer.begin(SignalDescription(channels: (0..<channels).map { SignalChannel(label: "C\($0)", grid: grid) },
                                               samplingRate: 250))
            for start in stride(from: 0, to: frames, by: batch) {
                let end = min(frames, start + batch)
                try writer.append(Array(values[(start * channels)..<(end * channels)]), channelCount: channels)
            }
            writer.annotate(SignalAnnotation(onset: 12.5, duration: 1, description: "BAD_lost_samples"))
            let summary = try writer.finish()
            #expect(summary.paddedFrames == 150)
            return ([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))),
                    try FileManager.default.contentsOfDirectory(atPath: folder.path))
        }
        let inMemory = try bytes(scratchMemoryLimit: SignalScratch.defaultMemoryLimit, batch: 997)
        // Spilled after the first batch (a few KB), then written in blocks; and spilled at the very first batch.
        for limit in [20_000, 0] {
            for batch in [997, 30_000] {
                let spilled = try bytes(scratchMemoryLimit: limit, batch: batch)
                #expect(spilled.bytes == inMemory.bytes, "memory limit \(limit), batches of \(batch)")
                #expect(spilled.folder == ["x." + kind.rawValue], "no scratch file left behind")
            }
        }
        #expect(try bytes(scratchMemoryLimit: SignalScratch.defaultMemoryLimit, batch: 30_000).bytes == inMemory.bytes)
        #expect(inMemory.folder == ["x." + kind.rawValue])
        #expect(inMemory.bytes.count > frames * channels * (kind == .bdf ? 3 : 2))
        // The last record's padding repeats the last frame: its digits are the same three channels 150 times.
        let sampleBytes = kind == .bdf ? 3 : 2
        let annotationBytes = (inMemory.bytes.count - 256 * 5) / 161 - 250 * channels * sampleBytes
        let lastRecord = Array(inMemory.bytes.suffix(250 * channels * sampleBytes + annotationBytes))
        for channel in 0..<channels {
            let block = lastRecord[(channel * 250 * sampleBytes)..<((channel + 1) * 250 * sampleBytes)]
            let last = Array(block[(block.startIndex + 99 * sampleBytes)..<(block.startIndex + 100 * sampleBytes)])
            for frame in 100..<250 {
                let at = block.startIndex + frame * sampleBytes
                #expect(Array(block[at..<(at + sampleBytes)]) == last, "channel \(channel), frame \(frame)")
            }
        }
    }

    @Test("Many annotations in one record spread over the following records' annotation bytes")
    func annotationsSpread() {
        let notes = (0..<50).map { SignalAnnotation(onset: 0.1, description: "marker \($0)") }
        let layout = EDFAnnotationLayout(annotations: notes, recordCount: 10, recordDuration: 1, sampleBytes: 2)
        let all = (0..<10).flatMap { layout.bytes(record: $0) }
        #expect(all.count == 10 * layout.bytesPerRecord)
        let text = String(decoding: all, as: UTF8.self)
        for index in 0..<50 { #expect(text.contains("marker \(index)\u{14}")) }
        #expect(layout.bytesPerRecord < 50 * 16)
    }
}
