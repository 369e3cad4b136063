"""The live server's addresses (risiko_site/asgi.py): the live channel, the route the proxy sends
there, and the health page (its container's health check, deploy/healthcheck.py). Its process loads no
other view, nor what they import (the workbooks' libraries, the notifications' HTTP clients): less
memory under 1,000 open streams."""
from django.urls import path

from risiko_site.health import health
from tables.live import views

urlpatterns = [
    path("t/<int:pk>/live/", views.live, name="live"),
    path("salute/", health, name="health"),
]
