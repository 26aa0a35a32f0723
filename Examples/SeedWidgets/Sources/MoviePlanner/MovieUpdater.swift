import Foundation

class MovieUpdater {
    var movie: Movie = Movie.empty
    var movies: [Movie] = [
        Movie(name: "Avengers: Infinity War",
              movieImageName: "infinity"),
        Movie(name: "Avengers: End Game",
              movieImageName: "endgame"),
        Movie(name: "Guardians of the Galaxy Volume 3",
              movieImageName: "gog3")
    ]
}
