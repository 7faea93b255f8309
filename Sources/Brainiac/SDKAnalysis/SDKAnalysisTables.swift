import Tables

/// The tables of the SDK re-computation (spec §3, §4.2): `frames`, `baseline`, `indicators`.
public enum SDKAnalysisTables {
    /// The unit attribute of every `_sdk` magnitude column.
    public static let magnitudeUnit = "SDK magnitude: 2·|DFT| of the nV samples (vDSP packed real FFT, no 1/N)"

    /// The `frames` rows, stored by column: one row per frame × channel × band.
    public struct FrameRows: Sendable {
        var segment: [Int32] = [], frame: [Int32] = [], counter: [Int32] = [], endSeconds: [Double] = []
        var spansGap: [Int8] = [], channel: [String?] = [], band: [String?] = []
        var dominantBin: [Int32] = [], dominantHz: [Double] = [], peakHz: [Double] = [], mean: [Double] = []
        var clear: [Int8] = [], clearRule: [Int8] = []

        public init() {}

        /// Number of rows.
        public var count: Int { frame.count }

        /// Appends a frame's 12 rows (channels T3, O1, T4, O2 × bands theta, alpha, beta).
        public mutating func append(_ f: FFTFrame, segment s: Int) {
            for (c, channelFrame) in f.channels.enumerated() {
                for band in SDKBand.allCases {
                    let values = channelFrame[band]
                    segment.append(Int32(clamping: s))
                    frame.append(Int32(clamping: f.index))
                    counter.append(Int32(clamping: f.counter))
                    endSeconds.append(f.endSeconds)
                    spansGap.append(f.spansGap ? 1 : 0)
                    channel.append(BrainiacHeadband.channelNames[c])
                    self.band.append(band.name)
                    dominantBin.append(Int32(values.dominantBin))
                    dominantHz.append(values.dominantHz)
                    peakHz.append(values.peakHz)
                    mean.append(values.mean)
                    clear.append(channelFrame.clear ? 1 : 0)
                    clearRule.append(channelFrame.clearRule ? 1 : 0)
                }
            }
        }

        /// The `frames` table.
        public func table(sourceFile: String) -> Table {
            Table("frames", [
                .string("source_file", [String?](repeating: sourceFile, count: count),
                        description: "the input path as given"),
                Column("segment", description: "decoder segment (0-based)", .int32(segment)),
                Column("frame", description: "frame number k in the segment, from 0", .int32(frame)),
                Column("counter", unit: "sample", description: "received samples when the SDK computed it: 250·(k+1)",
                       .int32(counter)),
                Column("t_s", unit: "s", description: "(sample_index of the window's last sample + 1) / 250",
                       .float64(endSeconds)),
                Column("spans_gap", description: "lost (or, under --gaps fill, filled) samples inside the 1-s window",
                       .bool(spansGap)),
                .string("channel", channel, description: "EEG channel: T3, O1, T4 or O2"),
                .string("band", band, description: "theta bins 3–6, alpha 7–13, beta 14–24 (of 256 at 250 Hz)"),
                Column("dominant_bin", unit: "bin", description: "the SDK's dataN: largest bin, lowest on ties",
                       .int32(dominantBin)),
                Column("dominant_hz", unit: "Hz", description: "dominant_bin · 250/256", .float64(dominantHz)),
                Column("peak_hz", unit: "Hz", description: "dominant bin refined by parabolic interpolation",
                       .float64(peakHz)),
                Column("band_mean_sdk", unit: SDKAnalysisTables.magnitudeUnit,
                       description: "the SDK's dataN_: mean magnitude over the band's bins", .float64(mean)),
                Column("clear", description: "as the SDK stored it (forced true during the baseline bypass)",
                       .bool(clear)),
                Column("clear_rule", description: "the quality rule's own result, before any bypass",
                       .bool(clearRule)),
            ])
        }
    }

    /// The `baseline` table: one row per segment (with the baseline enabled).
    public static func baseline(_ rows: [(segment: Int, baseline: Baseline)], sourceFile: String) -> Table {
        var columns: [Column] = [
            .string("source_file", rows.map { _ in sourceFile }, description: "the input path as given"),
            .int32("segment", rows.map(\.segment), description: "decoder segment (0-based)"),
            .int32("start_counter", rows.map(\.baseline.startCounter), unit: "sample", description: "S"),
            .int32("end_counter", rows.map(\.baseline.endCounter), unit: "sample", description: "E = S + D"),
            .float("t_s", rows.map(\.baseline.endSeconds), unit: "s", description: "device time at E"),
            .int32("first_frame", rows.map { $0.baseline.frames?.lowerBound },
                   description: "first of the 10 frames the baseline averages (⌊E/250⌋ − 10)"),
            .int32("last_frame", rows.map { $0.baseline.frames?.upperBound },
                   description: "last of the 10 frames the baseline averages (⌊E/250⌋ − 1)"),
            .float("x0_sdk", rows.map { $0.baseline.thresholds?.x0 }, unit: magnitudeUnit,
                   description: "mean alpha band mean of O1 and O2 over the baseline's clear frames"),
            .float("y0_sdk", rows.map { $0.baseline.thresholds?.y0 }, unit: magnitudeUnit,
                   description: "mean beta band mean of T3 and T4 over the baseline's clear frames"),
        ]
        for (index, name) in IndicatorThresholds(x0: 0, y0: 0, rules: .sdk).named.map(\.name).enumerated() {
            let symbol = name.prefix(1).uppercased() + name.dropFirst()
            let rule = name.hasPrefix("x") ? (name.hasSuffix("p") ? "p·X0" : "m·(X0 − 0.1·X0)")
                                           : (name.hasSuffix("p") ? "p·Y0" : "m·Y0")
            let note = name == "x4m" ? "; 0 under --indicator-rules corrected" : ""
            columns.append(.float(name + "_sdk", rows.map { $0.baseline.thresholds?.named[index].value },
                                  unit: magnitudeUnit, description: "zone-rule threshold \(symbol) = \(rule)\(note)"))
        }
        columns.append(.string("indicator_rules", rows.map(\.baseline.rules.rawValue),
                               description: "sdk (X4m quirk) or corrected (X4m = 0)"))
        columns.append(.string("status", rows.map(\.baseline.status.rawValue),
                               description: "ok, failed_empty or not_started"))
        return Table("baseline", columns)
    }

    /// The `indicators` table: one row per indicator.
    public static func indicators(_ rows: [(segment: Int, indicator: Indicator, x0: Double, y0: Double)],
                                  sourceFile: String) -> Table {
        Table("indicators", [
            .string("source_file", rows.map { _ in sourceFile }, description: "the input path as given"),
            .int32("segment", rows.map(\.segment), description: "decoder segment (0-based)"),
            .int32("counter", rows.map(\.indicator.counter), unit: "sample",
                   description: "received samples at the indicator: a multiple of 1250 after E"),
            .float("t_s", rows.map(\.indicator.endSeconds), unit: "s",
                   description: "device time of the moment: (sample_index of the last sample + 1) / 250"),
            .float("x_sdk", rows.map(\.indicator.x), unit: magnitudeUnit,
                   description: "mean alpha of O1/O2 over the last 5 frames' clear channels"),
            .float("y_sdk", rows.map(\.indicator.y), unit: magnitudeUnit,
                   description: "mean beta of T3/T4 over the last 5 frames' clear channels"),
            .float("x_ratio", rows.map { row in row.indicator.x.map { $0 / row.x0 } }, unit: "1", description: "X / X0"),
            .float("y_ratio", rows.map { row in row.indicator.y.map { $0 / row.y0 } }, unit: "1", description: "Y / Y0"),
            .int32("zone", rows.map { $0.indicator.result?.zone.rawValue },
                   description: "0 Relaxation … 5 HighAgitation"),
            .string("zone_name", rows.map { $0.indicator.result?.zone.name },
                    description: "the zone's name in the SDK source (Relaxation … HighAgitation)"),
            .float("percents", rows.map { $0.indicator.result.map { Double($0.percents) } }, unit: "1",
                   description: "the zone's level as the SDK gives it: 0.25, 0.5, 0.75 or 1.0"),
            .string("colors", rows.map { $0.indicator.result?.colours.map(\.rawValue).joined(separator: ";") },
                    description: "';'-joined in test order green, yellow, red, orange; empty for none"),
            .int32("n_colors", rows.map { $0.indicator.result?.colours.count },
                   description: "number of colours in colors (0 for an empty list)"),
            .bool("none", rows.map { $0.indicator.result == nil },
                  description: "the SDK's \"none\": no clear channel for X or Y in the last 5 frames"),
        ])
    }
}
