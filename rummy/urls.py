from django.urls import path

from rummy import views

app_name = "rummy"

urlpatterns = [
    path("rules/", views.RulesView.as_view(), name="rules"),
]
