"""The platform's models (games, seats, saves, rooms) arrive with the issues that need them."""
