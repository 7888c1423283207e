from django.urls import path

from durak import views

app_name = "durak"

urlpatterns = [
    path("rules/", views.RulesView.as_view(), name="rules"),
]
