"""The HTTP edge of the referee: litestar controllers over the pure engine (see app.create_app)."""
