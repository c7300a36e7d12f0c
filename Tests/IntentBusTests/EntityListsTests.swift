import Foundation
import Testing
import IntentBus
@testable import PluginHost

/// The entity lists' cache (Shortcuts/EntityLists.swift): what a plugin's answer becomes,
/// its bounds against hostile answers, and when a type is asked again.
@Suite("Entity lists: the cache of a plugin's entities for phrase slots")
struct EntityListsTests {
    let key = EntityLists.Key(plugin: "p", entity: "ProjectEntity")

    @Test("titles and synonyms become values giving {id, title}; unusable entries are skipped and said")
    func values() {
        let (values, problems) = EntityLists.values([
            ["id": "p1", "title": "Garden", "synonyms": ["Garten", "", .int(3)]],
            ["id": .int(7), "title": "Moon base"],
            ["title": "no id"], ["id": "x", "title": ""], ["id": "y", "title": .string(String(repeating: "a", count: 201))],
            ["id": .string(String(repeating: "i", count: 256)), "title": "long id"], "not an object",
        ])
        #expect(values.map(\.output) == [["id": "p1", "title": "Garden"], ["id": "p1", "title": "Garden"], ["id": "7", "title": "Moon base"]])
        #expect(problems == ["5 entities without a usable id and title (1 to 200 characters) were skipped"])
        #expect(EntityLists.values(nil).1 == ["the answer has no \"results\" array"])
        let many = JSON.array((0..<1_500).map { ["id": .string("e\($0)"), "title": .string("entity \($0)")] })
        let (kept, said) = EntityLists.values(many)
        #expect(kept.count == EntityLists.maximumEntities)
        #expect(said == ["1500 entities; the first 1000 are kept"])
    }

    @Test("asked after HELLO, once at a time, again after entities_changed, after a timeout, and when old")
    func refresh() {
        var lists = EntityLists()
        lists.declare(plugin: "p", entities: ["ProjectEntity"])
        #expect(lists.due(now: 0).map(\.key) == [key])
        lists.asking(key, id: 1, now: 0)
        #expect(lists.due(now: 1).isEmpty)  // one query open per type
        #expect(lists.list(plugin: "p", entity: "ProjectEntity") == nil)  // a wildcard until the answer
        let answer: JSON = ["results": [["id": "p1", "title": "Garden"]]]
        #expect(lists.answered(key, id: 99, .success(answer), now: 2).changed == false)  // not the open query
        #expect(lists.answered(key, id: 1, .success(answer), now: 2).changed == true)
        #expect(lists.list(plugin: "p", entity: "ProjectEntity") != nil)
        #expect(lists.due(now: 3).isEmpty)
        #expect(lists.due(now: 2 + EntityLists.refreshInterval + 1).map(\.key) == [key])  // old
        lists.changed(plugin: "p", names: ["OtherEntity"])
        #expect(lists.due(now: 4).isEmpty)
        lists.changed(plugin: "p", names: nil)
        #expect(lists.due(now: 4).map(\.key) == [key])
        lists.asking(key, id: 2, now: 4)
        let late = lists.due(now: 5 + EntityLists.answerTimeout)
        #expect(late.map(\.abandoned) == [2])  // given up: asked again
        // An ERROR keeps the list there was.
        #expect(lists.answered(key, id: 2, .failure(BusError(.pluginError, "boom")), now: 6).changed == false)
        #expect(lists.list(plugin: "p", entity: "ProjectEntity") != nil)
        // A new HELLO without the type forgets it.
        lists.declare(plugin: "p", entities: [])
        #expect(lists.list(plugin: "p", entity: "ProjectEntity") == nil)
        #expect(lists.due(now: 7).isEmpty)
    }
}
