"""Playing games: the rules engine on a simulated clock (`game`), bot players (`bots`),
seat-rotated series in worker processes (`tournament`) and the climbing game (`spellevate`)."""
