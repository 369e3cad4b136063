"""The live server's addresses (risiko_site/asgi.py): the live channel alone, the route the proxy
sends there. Its process loads no other view, nor what they import (the workbooks' libraries, the
notifications' HTTP clients): less memory under 1,000 open streams."""
from django.urls import path

from tables.live import views

urlpatterns = [
    path("t/<int:pk>/live/", views.live, name="live"),
]
