import ThumbKit

/// `--shard K/N`, or `--shard auto`: the slice a scheduler's array task gives, read from the
/// variables it sets, so one command line serves every task of the array.
///
/// - Kubernetes Indexed Job: `JOB_COMPLETION_INDEX` (0-based), with `--shard-count N` (the Job's
///   completions; Kubernetes does not put it in the environment).
/// - Slurm job array: `SLURM_ARRAY_TASK_ID` less `SLURM_ARRAY_TASK_MIN`, of
///   `SLURM_ARRAY_TASK_COUNT` (an array of consecutive ids, `--array=0-7` or `1-8`).
/// - AWS Batch array job: `AWS_BATCH_JOB_ARRAY_INDEX` (0-based), with `--shard-count N`.
struct ShardSettings {
    static let options: [OptionSpec] = [
        OptionSpec("shard", value: "K/N|auto",
                   help: "Process only slice K of N (1-based) and write thumbgen-manifest.K-of-N.json; auto: the array task's slice (Kubernetes, Slurm, AWS Batch)."),
        OptionSpec("shard-count", value: "N", help: "How many slices --shard auto splits into, where the scheduler does not say (Kubernetes, AWS Batch)."),
    ]

    /// The slice, and with `auto` the variables it came from (for `-v`).
    let shard: Shard?
    let origin: String?

    init(_ arguments: ParsedArguments, environment: [String: String]) throws(UsageError) {
        let count = try arguments.optionalValue("shard-count", expected: "a number of shards from 1 up") { Int($0).flatMap { $0 >= 1 ? $0 : nil } }
        guard let text = arguments.value("shard") else {
            if count != nil { throw UsageError("--shard-count goes with --shard auto") }
            (shard, origin) = (nil, nil)
            return
        }
        guard text == "auto" else {
            if count != nil { throw UsageError("--shard-count goes with --shard auto, not --shard \(text)") }
            (shard, origin) = (try Self.parse(text), nil)
            return
        }
        (shard, origin) = try Self.resolve(environment: environment, count: count)
    }

    static func parse(_ text: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), let shard = try? Shard(index: k, count: n) else {
            throw .invalidValue("shard", text, expected: "K/N with 1 <= K <= N, e.g. 2/8, or auto")
        }
        return shard
    }

    /// The slice the first scheduler found in `environment` gives (Slurm, then Kubernetes, then
    /// AWS Batch).
    static func resolve(environment: [String: String], count: Int?) throws(UsageError) -> (Shard, String) {
        func number(_ name: String) throws(UsageError) -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text), value >= 0 else { throw UsageError("--shard auto: \(name)=\(PathEscaping.singleLine(text)) is not a whole number") }
            return value
        }
        func make(_ zeroBased: Int, _ total: Int, _ origin: String) throws(UsageError) -> (Shard, String) {
            if let count, count != total { throw UsageError("--shard auto: \(origin) gives \(total) shards, --shard-count \(count)") }
            guard let shard = try? Shard(index: zeroBased + 1, count: total) else {
                throw UsageError("--shard auto: \(origin) is not a slice of \(total)")
            }
            return (shard, origin)
        }
        if let id = try number("SLURM_ARRAY_TASK_ID") {
            guard let total = try number("SLURM_ARRAY_TASK_COUNT") else {
                throw UsageError("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            let minimum = try number("SLURM_ARRAY_TASK_MIN") ?? 0
            return try make(id - minimum, total, "SLURM_ARRAY_TASK_ID=\(id), SLURM_ARRAY_TASK_MIN=\(minimum), SLURM_ARRAY_TASK_COUNT=\(total)")
        }
        for name in ["JOB_COMPLETION_INDEX", "AWS_BATCH_JOB_ARRAY_INDEX"] {
            guard let index = try number(name) else { continue }
            guard let count else { throw UsageError("--shard auto: \(name) gives the index only; add --shard-count N") }
            return try make(index, count, "\(name)=\(index)")
        }
        throw UsageError("--shard auto: none of SLURM_ARRAY_TASK_ID, JOB_COMPLETION_INDEX or AWS_BATCH_JOB_ARRAY_INDEX is set")
    }
}
