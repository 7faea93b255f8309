import Testing
@testable import MYND

@Suite("Localized wall-clock strings (spec §4)")
struct LocalizedTimeTests {
    @Test("en-US: 05/02/2020, 5:09:05 PM GMT+02:00 is 15:09:05 UTC under mdy")
    func englishUS() {
        let time = LocalizedTime("05/02/2020, 5:09:05 PM GMT+02:00")
        #expect(time.problem == nil)
        #expect(time.offsetMinutes == 120)
        #expect(time.isAmbiguous)
        // 2020-05-02T15:09:05Z = 1588432145
        #expect(time.utcSeconds(order: .mdy) == 1_588_432_145)
        // dmy would be 5 February.
        #expect(time.utcSeconds(order: .dmy) == 1_580_915_345)
    }

    @Test("Other regions: 24-hour, dots, dashes, bare GMT/UTC, year first, hour-only offsets")
    func otherRegions() {
        let german = LocalizedTime("02.05.2020, 17:42:09 GMT+2")
        #expect(german.offsetMinutes == 120)
        #expect(german.utcSeconds(resolved: .dmy) == 1_588_434_129)
        let british = LocalizedTime("25/12/2019, 09:00:00 GMT")
        #expect(british.possibleOrders == [.dmy])
        #expect(british.utcSeconds(resolved: .mdy) == 1_577_264_400)  // decided by 25 > 12 whatever the order
        let swedish = LocalizedTime("2020-05-02 17:42:09 UTC+02:00")
        #expect(swedish.yearFirst)
        #expect(swedish.utcSeconds(resolved: .mdy) == 1_588_434_129)
        let minus = LocalizedTime("12/31/2019, 11:59:59 PM GMT-05:30")
        #expect(minus.offsetMinutes == -330)
        #expect(minus.utcSeconds(resolved: .mdy) == Double(1_577_856_599))
        let midnight = LocalizedTime("01/13/2020, 12:00:00 AM GMT")
        #expect(midnight.utcSeconds(resolved: .mdy) == 1_578_873_600)
    }

    @Test("Unreadable parts: unknown day-period words, no zone, two date numbers")
    func unreadable() {
        let japanese = LocalizedTime("2020/05/02 午後5:42:09 GMT+9")
        #expect(japanese.problem != nil)
        #expect(japanese.utcSeconds(resolved: .ymd) == nil)
        let noZone = LocalizedTime("05/02/2020, 5:09:05 PM")
        #expect(noZone.offsetMinutes == nil)
        #expect(noZone.utcSeconds(order: .mdy) == nil)
        #expect(noZone.localSeconds(order: .mdy) == 1_588_439_345)
        #expect(LocalizedTime("05/2020, 5:09:05 PM GMT").utcSeconds(resolved: .mdy) == nil)
        #expect(LocalizedTime("").problem != nil)
    }

    @Test("Auto date order: the recording's first TimeStamp decides within 120 s; else guessed from the language")
    func resolver() {
        var resolver = DateOrderResolver(given: nil)
        let start = LocalizedTime("05/02/2020, 5:42:09 PM GMT+02:00")
        resolver.add(subjectID: "S", time: start, referenceUTC: 1_588_434_129.712318)
        #expect(resolver.order(subjectID: "S", locale: "de") == (.mdy, false))
        var dmyEvidence = DateOrderResolver(given: nil)
        dmyEvidence.add(subjectID: "S", time: LocalizedTime("02/05/2020, 17:42:09 GMT+02:00"),
                        referenceUTC: 1_588_434_129.7)
        #expect(dmyEvidence.order(subjectID: "S", locale: "en") == (.dmy, false))
        #expect(dmyEvidence.order(subjectID: "other", locale: "en") == (.mdy, true))
        #expect(dmyEvidence.order(subjectID: "other", locale: "de") == (.dmy, true))
        #expect(DateOrderResolver(given: .dmy).order(subjectID: "S", locale: "en") == (.dmy, false))
    }
}
