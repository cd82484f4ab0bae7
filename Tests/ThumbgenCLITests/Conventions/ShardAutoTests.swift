import Testing
@testable import ThumbgenCLI
import TestSupport

/// `--shard auto`: the slice each scheduler's variables give.
@Suite struct ShardAutoTests {
    static func resolve(_ environment: [String: String], count: Int? = nil) throws -> (Int, Int) {
        let (shard, _) = try ShardSettings.resolve(environment: environment, count: count)
        return (shard.index, shard.count)
    }

    @Test func eachSchedulersVariablesGiveTheSlice() throws {
        #expect(try Self.resolve(["SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "4"]) == (1, 4))
        #expect(try Self.resolve(["SLURM_ARRAY_TASK_ID": "8", "SLURM_ARRAY_TASK_MIN": "5", "SLURM_ARRAY_TASK_COUNT": "4"]) == (4, 4))
        #expect(try Self.resolve(["JOB_COMPLETION_INDEX": "2"], count: 3) == (3, 3))
        #expect(try Self.resolve(["AWS_BATCH_JOB_ARRAY_INDEX": "0"], count: 10) == (1, 10))
    }

    @Test func missingOrInconsistentVariablesAreUsageErrors() {
        #expect(throws: UsageError.self) { try Self.resolve([:]) }
        #expect(throws: UsageError.self) { try Self.resolve(["JOB_COMPLETION_INDEX": "2"]) }
        #expect(throws: UsageError.self) { try Self.resolve(["JOB_COMPLETION_INDEX": "3"], count: 3) }
        #expect(throws: UsageError.self) { try Self.resolve(["SLURM_ARRAY_TASK_ID": "1"]) }
        #expect(throws: UsageError.self) { try Self.resolve(["SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "2"]) }
        #expect(throws: UsageError.self) { try Self.resolve(["SLURM_ARRAY_TASK_ID": "1", "SLURM_ARRAY_TASK_COUNT": "2"], count: 3) }
        #expect(CLIRun(["x", "--shard", "auto"]).status == .usage)
        #expect(CLIRun(["x", "--shard-count", "2"]).status == .usage)
    }
}
