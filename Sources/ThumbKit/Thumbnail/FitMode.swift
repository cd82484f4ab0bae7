/// How a source is fitted to a W×H box.
public enum FitMode: String, Sendable, Hashable, CaseIterable {
    /// Aspect-fit (the default): the limiting side equals the box side, the other is scaled in
    /// proportion and rounded half up, at least 1. `WxH` in ImageMagick.
    case inside
    /// Aspect-fill: the output is exactly W×H and a centred (or `Gravity`-anchored) part of the
    /// source with the box's aspect ratio is scaled to it. `WxH^` here.
    case cover
    /// Aspect-fit, to be placed on a W×H canvas (letterboxing); the plan gives the placement.
    case contain
    /// Stretch each axis independently to W×H, ignoring aspect ratio. `WxH!`.
    case fill
}
