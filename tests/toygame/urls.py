from django.urls import path
from django.views.generic import TemplateView

app_name = "toygame"

urlpatterns = [
    path("rules/", TemplateView.as_view(template_name="toygame/rules.html"), name="rules")
]
