/// Renders one source into its outputs, one per requested scale.
///
/// Called concurrently from several worker threads, hence `@Sendable`; it must be deterministic
/// (same bytes and settings → same outputs) for incremental runs and `check` to mean anything.
/// A thrown error fails this source only; `ThumbKitError`s show their `message`, other errors
/// their description.
package typealias BatchRenderer = @Sendable (BatchSource) throws -> [RenderedOutput]
