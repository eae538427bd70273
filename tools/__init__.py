"""Developers' tools, not shipped with the course: the static site's build
(:mod:`tools.static_site`, ``./dev site``) and the translation catalogs
(:mod:`tools.catalogs`, ``./dev catalogs``)."""
