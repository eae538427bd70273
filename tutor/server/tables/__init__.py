"""Tables of classmates: five learners play one hand together, the server refereeing every
seat (:mod:`~tutor.server.tables.shared`), served over websockets with their pages
(:mod:`~tutor.server.tables.web`): inside the course's Voila server under ``/tables/``
(``./dev serve``), or on JupyterHub as the hub-managed service ``/services/tables/``
(``python -m tutor.server.tables``, started by ``deploy/jupyterhub_config.py``)."""
