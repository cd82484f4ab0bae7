/// A decoder that decodes once, at full size only (giflib, libtiff, libheif: no reduced decode),
/// handing out RGB rows for an opaque image when they stream and RGBA otherwise. It keeps the
/// request it was started with; the rest is its library's.
protocol FullSizeDecoder: ImageDecoder {
    /// What `start` was asked for; nil before.
    var request: DecodeRequest? { get set }
}

extension FullSizeDecoder {
    var rowChannels: Int { request?.rowChannels(hasAlpha: header.hasAlpha) ?? 4 }

    func start(_ request: DecodeRequest) throws(DecodeError) {
        take(request)
    }

    /// Keeps the request, checked: the first, at full size.
    func take(_ request: DecodeRequest) {
        precondition(self.request == nil, "a \(Self.self) decodes once")
        precondition(request.reduction == 1 && request.scaledSize == nil, "\(Self.format) images are decoded at full size")
        self.request = request
    }
}
