"""The app's page: tabs, event handlers, leaderboards, views and figures."""
