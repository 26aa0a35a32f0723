import Foundation

struct Movie {
    let name: String
    let movieImageName: String
    static var empty: Movie {
        Movie(name: "", movieImageName: "")
    }
}
