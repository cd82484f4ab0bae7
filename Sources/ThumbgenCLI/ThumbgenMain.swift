public enum ThumbgenMain { public static func run() {} }
