"""The queue as the domain sees it: queue and task names (`names`), the Celery application
built from the settings on first use (`celery_app`), and `enqueue`, which sends a task only
after the transaction that wrote its row commits (`outbox`). Task code lives in `worker/`,
which registers on this application by name; nothing here imports it."""
