"""Two Daphne workers sharing PostgreSQL and Redis: moves cross processes."""
