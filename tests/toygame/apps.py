from django.apps import AppConfig


class NimConfig(AppConfig):
    name = "tests.toygame"
    label = "toygame"

    def ready(self) -> None:
        from cardgames.registry import register
        from tests.toygame.kind import NIM

        register(NIM)
