/// The latencies of the most recent requests (a ring of `capacity` values, microseconds),
/// for percentiles over a recent window. Recording is one array store.
struct LatencyWindow {
    let capacity: Int
    private var values: [UInt32] = []
    private var next = 0

    init(capacity: Int = 1_024) { self.capacity = capacity }

    mutating func record(microseconds: UInt64) {
        let v = UInt32(min(microseconds, UInt64(UInt32.max)))
        if values.count < capacity {
            values.append(v)
        } else {
            values[next] = v
            next = (next + 1) % capacity
        }
    }

    /// How many values the window holds.
    var count: Int { values.count }

    /// The `q` quantile (0…1) in microseconds, nearest rank; nil when empty.
    func quantile(_ q: Double) -> UInt32? {
        guard !values.isEmpty else { return nil }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
